// Fault injection: what the network, GridBank and its storage can do wrong, and what the
// nodes make of it. Nothing lost, nothing short, nothing left behind in the binary store.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';

import {
	DEMO_PARTNER_KEY,
	fileSha256,
	startSimulator,
	type LoggedRequest,
	type Simulator,
} from '../../../../simulator';
import { runPartner } from '../../../harness/run-gridbank';
import {
	binaryStream,
	cleanUpBinaries,
	deleteBinaries,
	storedFiles,
	type NodeRun,
} from '../../../harness/run-node';
import { storeKeepsPartialFiles } from '../../../harness/engine';
import { apiCalls, useSimulator } from '../../../harness/simulator';

const sim = useSimulator();
const keep = cleanUpBinaries();

const licensed = (n: number) => sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;
const storage = () => sim().log.filter((e) => e.target === 'storage');

/** Get Download URL with Download File on. */
const download = async (videoKey: string, maxRetries = 3) =>
	keep(
		await runPartner({
			operation: 'getDownloadUrl',
			videoKey,
			download: true,
			options: { maxRetries },
		}),
	);

async function sha256(run: NodeRun) {
	const hash = createHash('sha256');
	for await (const chunk of await binaryStream(run.items[0])) hash.update(chunk as Buffer);
	return hash.digest('hex');
}

/**
 * n8n 2.x's store drops a failed write. 1.x's keeps what arrived, short of the whole file, in
 * the execution's own folder (never in an item): one file per attempt that started the file
 * again, until the execution's binary data is deleted, as README "Files and binary data" says.
 */
async function expectNoPartialFiles(run: NodeRun, o: { attempts: number; size?: number }) {
	expect(run.items).toEqual([]);
	const files = storedFiles(run);
	if (!storeKeepsPartialFiles) return expect(files).toEqual([]);
	expect(files.length).toBeGreaterThanOrEqual(1);
	expect(files.length).toBeLessThanOrEqual(o.attempts);
	for (const file of files)
		if (o.size !== undefined) expect(statSync(file).size).toBeLessThan(o.size);
	await deleteBinaries(run);
	expect(storedFiles(run)).toEqual([]);
}

describe('the list', () => {
	test('a connection reset in the middle of a page body is retried', async () => {
		sim().faults.resetConnections({ count: 1, path: '/content', afterBytes: 200 });
		const run = keep(await runPartner({ operation: 'listContent', returnAll: false, limit: 250 }));
		expect(run.error).toBeUndefined();
		expect(run.items.map((i) => i.json.video_key)).toEqual(
			sim()
				.partnerLicences(DEMO_PARTNER_KEY)
				.slice(0, 250)
				.map((l) => l.video_key),
		);
		expect(apiCalls(sim(), '/content')).toHaveLength(4);
	});

	test('a storm of 429s is waited out', async () => {
		sim().faults.failNext({ status: 429, count: 3, path: '/content', retryAfter: '0' });
		const run = keep(await runPartner({ operation: 'listContent', returnAll: false, limit: 10 }));
		expect(run.error).toBeUndefined();
		expect(apiCalls(sim(), '/content').map((c) => c.status)).toEqual([429, 429, 429, 200]);
	});

	test('a 200 whose body is not JSON (a proxy page) is an error, not an empty list', async () => {
		sim().faults.nonJsonOkBody('/content', 10);
		const run = keep(
			await runPartner({ operation: 'listContent', returnAll: true, options: { maxRetries: 1 } }),
		);
		expect(apiCalls(sim(), '/content')).toHaveLength(2);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toMatch(/not JSON \(HTTP 200\)/);
		expect(run.error?.description).toMatch(/Base URL/);
	});

	test('unknown extra fields and null values pass through untouched', async () => {
		sim().faults.extraFields(true);
		sim().faults.nullableFieldsNull(true);
		const run = keep(await runPartner({ operation: 'listContent', returnAll: false, limit: 3 }));
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(3);
		for (const { json } of run.items) {
			expect(json).toMatchObject({
				title: null,
				duration_seconds: null,
				purchased_at: null,
				preview_url: null,
				thumbnail_url: null,
			});
			expect(typeof json.video_key).toBe('string');
			expect(json.creator).toBeDefined();
		}
	});

	test('a key revoked between two items fails only the second item', async () => {
		const watching = await startSimulatorRevokingAfterFirst();
		try {
			const { key } = watching.sim.createPartnerAccount({ licences: 3 });
			const [x, y] = watching.sim.partnerLicences(key).map((l) => l.video_key);
			watching.revokeAfterFirst = key;
			const run = keep(
				await runPartner(
					{ operation: 'getDownloadUrl', videoKey: '={{ $json.key }}' },
					{
						baseUrl: watching.sim.baseUrl,
						apiKey: key,
						input: [{ key: x }, { key: y }],
						continueOnFail: true,
					},
				),
			);
			expect(run.items).toHaveLength(2);
			expect(run.items[0].json.video_key).toBe(x);
			expect(run.items[1].json.error).toMatch(/missing, malformed or revoked/);
			expect(watching.sim.log.map((e) => e.status)).toEqual([200, 401]);
		} finally {
			await watching.sim.close();
		}
	});
});

/** A second simulator whose request hook revokes a key once its first request is answered. */
async function startSimulatorRevokingAfterFirst() {
	const holder = {} as { sim: Simulator; revokeAfterFirst?: string };
	holder.sim = await startSimulator({
		port: 0,
		onRequest: (entry: LoggedRequest) => {
			if (holder.revokeAfterFirst && entry.target === 'api' && entry.status === 200) {
				holder.sim.faults.revokeKey(holder.revokeAfterFirst);
				holder.revokeAfterFirst = undefined;
			}
		},
	});
	return holder;
}

describe('downloads', () => {
	const size = 3 * 1024 * 1024 + 11;

	test('a connection reset mid-download resumes with Range from the byte received', async () => {
		const key = licensed(10);
		sim().setVideoFile(key, { size });
		sim().faults.resetConnections({ count: 1, target: 'storage', afterBytes: 1_000_000 });
		const run = await download(key);
		expect(run.error).toBeUndefined();
		expect(await sha256(run)).toBe(fileSha256(key, size));
		const fetched = storage();
		expect(fetched).toHaveLength(2);
		expect(fetched[0].headers.range).toBe('bytes=0-');
		expect(fetched[1].headers.range).toMatch(/^bytes=\d+-$/);
		expect(Number(/\d+/.exec(fetched[1].headers.range!)![0])).toBeGreaterThan(0);
		expect(apiCalls(sim(), '/download')).toHaveLength(1);
	});

	test('without range support a broken download starts again, and the file is whole', async () => {
		const key = licensed(11);
		sim().setVideoFile(key, { size, rangeSupport: false });
		sim().faults.cutDownloadAfter(700_000, 1);
		const run = await download(key);
		expect(run.error).toBeUndefined();
		expect(await sha256(run)).toBe(fileSha256(key, size));
		expect(storage().map((e) => e.status)).toEqual([200, 200]);
	});

	test('cut on every try: the item fails and no partial file stays in the binary store', async () => {
		const key = licensed(12);
		sim().setVideoFile(key, { size, rangeSupport: false });
		sim().faults.cutDownloadAfter(500_000, 10);
		const run = await download(key, 2);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toMatch(/cut off/);
		expect(storage()).toHaveLength(3);
		await expectNoPartialFiles(run, { attempts: 3, size });
	});

	test('a Content-Length shorter than the file: the rest is fetched by range', async () => {
		const key = licensed(13);
		sim().setVideoFile(key, { size });
		sim().faults.declareWrongLength(-5000, 1);
		const run = await download(key);
		expect(run.error).toBeUndefined();
		expect(run.items[0].json.fileSize).toBe(size);
		expect(await sha256(run)).toBe(fileSha256(key, size));
	});

	test('a Content-Length longer than the body fails the item, nothing stored', async () => {
		const key = licensed(13);
		sim().setVideoFile(key, { size });
		sim().faults.declareWrongLength(+5000, 10);
		const run = await download(key);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toMatch(/cut off|incomplete/);
		await expectNoPartialFiles(run, { attempts: 4 });
	});

	test('bytes past the size storage stated fail the item, nothing stored', async () => {
		const key = licensed(13);
		sim().setVideoFile(key, { size });
		sim().faults.sendExtraBytes(70_000, 10);
		const run = await download(key, 0);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toMatch(/cut off/);
		expect(run.error?.description).toMatch(/more bytes than the file has/);
		await expectNoPartialFiles(run, { attempts: 1 });
	});

	test('slow storage still delivers the whole file', async () => {
		const key = licensed(14);
		sim().setVideoFile(key, { size: 400_000 });
		sim().faults.slowDownload(400_000);
		const run = await download(key);
		sim().faults.slowDownload(0);
		expect(run.error).toBeUndefined();
		expect(await sha256(run)).toBe(fileSha256(key, 400_000));
	});

	test('a URL that storage already considers expired (our clock behind) is replaced once', async () => {
		const key = licensed(15);
		sim().setVideoFile(key, { size: 10_000 });
		sim().faults.expireUrlsEarly(1);
		const run = await download(key);
		expect(run.error).toBeUndefined();
		expect(apiCalls(sim(), '/download')).toHaveLength(2);
		expect(storage().map((e) => e.status)).toEqual([403, 206]);
	});

	test('storage 5xx is retried with backoff', async () => {
		const key = licensed(16);
		sim().setVideoFile(key, { size: 10_000 });
		sim().faults.failNext({ status: 503, count: 2, target: 'storage', htmlBody: true });
		const run = await download(key);
		expect(run.error).toBeUndefined();
		expect(storage().map((e) => e.status)).toEqual([503, 503, 206]);
	});
});
