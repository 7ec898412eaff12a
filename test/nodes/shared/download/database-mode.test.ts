// Big files in n8n's "database" binary data mode (the default in queue mode), through n8n-core's
// real engine and its real BinaryDataService, config and FileTooLargeError.
//
// n8n's DatabaseManager lives in the `n8n` server package (packages/cli), which needs n8n's
// database; these tests register a stand-in for it under the 'database' mode that does what its
// store() does: buffer the whole stream, then throw n8n-core's FileTooLargeError when the file
// is over BinaryDataConfig.dbMaxFileSize (MiB), else keep it. The mode and the limit are set on
// n8n's own BinaryDataConfig, as N8N_DEFAULT_BINARY_DATA_MODE and
// N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE would set them.
import { Container } from '@n8n/di';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { BinaryDataConfig, BinaryDataService, FileTooLargeError, type BinaryData } from 'n8n-core';

import { DEMO_PARTNER_KEY } from '../../../../simulator';
import { runEnterprise, runPartner } from '../../../harness/run-gridbank';
import { initBinaryData } from '../../../harness/run-node';
import { storedBytes } from '../../../harness/engine';
import { useSimulator } from '../../../harness/simulator';
import { PROMPTLY_MS } from '../../../harness/time-bounds';

const sim = useSimulator();
const GiB = 1024 * 1024 * 1024;

class DatabaseModeStore implements BinaryData.Manager {
	/** Sizes of what was written, in order (the node's mode probe is the empty one). */
	readonly written: number[] = [];
	private readonly files = new Map<string, Buffer>();

	constructor(private readonly config: BinaryDataConfig) {}

	async init() {}

	async store(
		_location: BinaryData.FileLocation,
		bufferOrStream: Buffer | Readable,
		metadata: BinaryData.PreWriteMetadata,
	) {
		const chunks: Buffer[] = [];
		if (Buffer.isBuffer(bufferOrStream)) chunks.push(bufferOrStream);
		else for await (const chunk of bufferOrStream) chunks.push(chunk as Buffer);
		const buffer = Buffer.concat(chunks);
		const fileId = randomUUID();
		const fileSizeMb = buffer.length / (1024 * 1024);
		if (fileSizeMb > this.config.dbMaxFileSize)
			throw new FileTooLargeError({
				fileSizeMb,
				maxFileSizeMb: this.config.dbMaxFileSize,
				fileId,
				fileName: metadata.fileName,
			});
		this.files.set(fileId, buffer);
		this.written.push(buffer.length);
		return { fileId, fileSize: buffer.length };
	}

	getPath(fileId: string) {
		return `database://${fileId}`;
	}

	async getAsBuffer(fileId: string) {
		return this.files.get(fileId) ?? Buffer.alloc(0);
	}

	async getAsStream(fileId: string) {
		return Readable.from(await this.getAsBuffer(fileId));
	}

	async getMetadata(fileId: string) {
		return { fileSize: (await this.getAsBuffer(fileId)).length };
	}

	async copyByFileId(): Promise<string> {
		throw new Error('not used');
	}

	async copyByFilePath(): Promise<BinaryData.WriteResult> {
		throw new Error('not used');
	}

	async rename() {}
}

const config = Container.get(BinaryDataConfig);
let store: DatabaseModeStore;

beforeAll(async () => {
	config.mode = 'database';
	config.dbMaxFileSize = 1; // MiB: small enough for n8n's own refusal to be tested with small files
	await initBinaryData();
	store = new DatabaseModeStore(config);
	Container.get(BinaryDataService).setManager('database', store);
});

beforeEach(() => {
	store.written.length = 0;
});

const licensed = (n: number) => sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;

const storageRequests = () => sim().log.filter((entry) => entry.target !== 'api');

const ADVICE =
	/S3 \(queue mode\) or filesystem .* or turn Download File off and pass the signed URL/;

test('Enterprise: a 3 GiB file (file_size) fails before storage is asked for a byte', async () => {
	const key = sim().createEnterpriseAccount({ tier: 'growth' }).key;
	const [videoId] = sim().addEnterpriseVideos([{ title: 'Big master' }]);
	sim().setVideoFile(videoId, { size: 3 * GiB });
	const run = await runEnterprise(
		{ resource: 'video', operation: 'getDownload', videoId, download: true },
		{ apiKey: key },
	);
	expect(run.error?.message).toBe(
		`The file (3072 MiB) is too big for n8n's "database" binary data mode`,
	);
	expect(run.error?.description).toMatch(
		/holds at most 1 GiB \(512 MiB unless N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE raises it\)/,
	);
	expect(run.error?.description).toMatch(ADVICE);
	expect(storageRequests()).toEqual([]);
	// The only write was the empty file whose id told the node n8n's binary data mode.
	expect(store.written).toEqual([0]);
});

test('Partner: a 3 GiB file (size from storage headers) fails before its body is read', async () => {
	const videoKey = licensed(0);
	sim().setVideoFile(videoKey, { size: 3 * GiB });
	// At this pace the body would take 50 minutes: the run ending at once shows it was not read.
	sim().faults.slowDownload(1024 * 1024);
	const started = Date.now();
	const run = await runPartner({
		operation: 'getDownloadUrl',
		videoKey,
		download: true,
		options: { maxRetries: 2 },
	});
	expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
	expect(run.error?.message).toBe(
		`The file (3072 MiB) is too big for n8n's "database" binary data mode`,
	);
	expect(run.error?.description).toMatch(ADVICE);
	expect(storageRequests()).toHaveLength(1);
	expect(store.written).toEqual([0]);
});

test("a file under 1 GiB but over the configured limit: n8n's own refusal becomes the same advice, with no retry", async () => {
	const videoKey = licensed(1);
	sim().setVideoFile(videoKey, { size: 3 * 1024 * 1024 });
	const run = await runPartner({
		operation: 'getDownloadUrl',
		videoKey,
		download: true,
		options: { maxRetries: 2 },
	});
	expect(run.error?.message).toBe(
		`The file (3 MiB) is too big for n8n's "database" binary data mode`,
	);
	expect(run.error?.description).toMatch(/holds at most 1 MiB per file/);
	expect(run.error?.description).toMatch(ADVICE);
	// Not mistaken for a broken transfer: one storage request, no resume or restart.
	expect(storageRequests()).toHaveLength(1);
	expect(store.written).toEqual([]);
});

test('a file within the limit is stored in database mode, without a probe', async () => {
	const videoKey = licensed(2);
	sim().setVideoFile(videoKey, { size: 200 * 1024 });
	const run = await runPartner({
		operation: 'getDownloadUrl',
		videoKey,
		download: true,
		options: { maxRetries: 2 },
	});
	expect(run.error).toBeUndefined();
	expect(run.items[0].json.fileSize).toBe(200 * 1024);
	expect(run.items[0].binary?.data.id).toMatch(/^database:/);
	expect(store.written).toEqual([200 * 1024]);
});

test('in filesystem mode the same 3 GiB file is not refused: the transfer starts', async () => {
	const service = Container.get(BinaryDataService) as unknown as { mode: string };
	service.mode = 'filesystem-v2';
	try {
		const videoKey = licensed(3);
		sim().setVideoFile(videoKey, { size: 3 * GiB });
		// Storage cuts the transfer after 64 KiB every time: the error is the broken transfer's,
		// reached only because the store check let the file through.
		sim().faults.cutDownloadAfter(64 * 1024, 10);
		const run = await runPartner({
			operation: 'getDownloadUrl',
			videoKey,
			download: true,
			options: { maxRetries: 0 },
		});
		expect(run.error?.message).toBe('The download was cut off before the whole file arrived');
		expect(store.written).toEqual([]);
	} finally {
		service.mode = 'database';
	}
});

test('Partner Trigger: a file too big for the mode comes once with downloadError; newer videos keep coming', async () => {
	const { PollingTrigger } = await import('../../../harness/poll-node');
	const key = sim().createPartnerAccount({
		licences: 3,
		purchasedAtStart: Math.floor(Date.now() / 1000) - 30 * 86_400,
	}).key;
	const trigger = new PollingTrigger({
		type: 'gridBankPartnerTrigger',
		parameters: { download: true },
		credentials: { gridBankPartnerApi: { apiKey: key, baseUrl: sim().baseUrl } },
	});
	try {
		await trigger.activate();
		const [big] = sim().addPartnerLicences(key, 1, {
			purchasedAt: Math.floor(Date.now() / 1000) - 3600,
		});
		sim().setVideoFile(big, { size: 3 * 1024 * 1024 });
		const first = await trigger.tick();
		expect(first.error).toBeUndefined();
		expect(first.items?.map((item) => item.json.video_key)).toEqual([big]);
		expect(first.items?.[0].json.downloadError).toBe(
			`The file (3 MiB) is too big for n8n's "database" binary data mode`,
		);

		const [small] = sim().addPartnerLicences(key, 1);
		sim().setVideoFile(small, { size: 100_000 });
		const second = await trigger.tick();
		expect(second.items?.map((item) => item.json.video_key)).toEqual([small]);
		expect(await storedBytes(second.items?.[0].binary?.data)).toBe(100_000);
	} finally {
		await trigger.close();
	}
});
