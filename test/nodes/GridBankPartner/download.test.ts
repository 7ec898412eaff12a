// Get Download URL with Download on: the master file streamed into n8n's filesystem binary
// store, named and typed right, re-requested once when storage refuses the signed URL, never
// passed on short, and never sent the API key.
import { createHash } from 'node:crypto';

import { DEMO_PARTNER_KEY, fileSha256, startSimulator } from '../../../simulator';
import { runPartner, type GridBankRunOptions } from '../../harness/run-gridbank';
import { binaryStream, cleanUpBinaries, type NodeRun } from '../../harness/run-node';
import { apiCalls, useSimulator } from '../../harness/simulator';

const sim = useSimulator();
const keep = cleanUpBinaries();

const licensed = (n: number) => sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;

/** Get Download URL with Download File on. */
const download = async (
	videoKey: string,
	extra: Record<string, unknown> = {},
	options: GridBankRunOptions = {},
) =>
	keep(
		await runPartner({ operation: 'getDownloadUrl', videoKey, download: true, ...extra }, options),
	);

async function sha256Of(run: NodeRun, property = 'data') {
	const hash = createHash('sha256');
	let bytes = 0;
	for await (const chunk of await binaryStream(run.items[0], property)) {
		hash.update(chunk as Buffer);
		bytes += (chunk as Buffer).length;
	}
	return { sha256: hash.digest('hex'), bytes };
}

test('a 100 MB master is stored in filesystem mode, complete and byte-exact', async () => {
	const key = licensed(0);
	const size = 100 * 1024 * 1024 + 7;
	sim().setVideoFile(key, { size, fileName: 'harbour-at-dawn.mov', disposition: 'filename' });
	const run = await download(key, { binaryPropertyName: 'master' });
	expect(run.error).toBeUndefined();
	const [item] = run.items;
	expect(item.json).toMatchObject({
		video_key: key,
		fileName: 'harbour-at-dawn.mov',
		mimeType: 'video/quicktime',
		fileSize: size,
	});
	expect(typeof item.json.url).toBe('string');
	expect(typeof item.json.expires_at).toBe('number');
	expect(item.binary?.master.id).toMatch(/^filesystem/);
	expect(item.binary?.master.data).not.toHaveLength(size);
	expect(await sha256Of(run, 'master')).toEqual({ sha256: fileSha256(key, size), bytes: size });
});

describe('file name and MIME type', () => {
	test.each([
		[
			'filename* (RFC 5987, UTF-8) first',
			'filename*',
			'Ünïcode clip – 4K.mov',
			'video/quicktime',
			'Ünïcode clip – 4K.mov',
			'video/quicktime',
		],
		[
			'plain filename',
			'filename',
			'sunset.mov',
			'video/quicktime',
			'sunset.mov',
			'video/quicktime',
		],
		[
			"the signed URL's response-content-disposition",
			'url-only',
			'from-url.mp4',
			'video/mp4',
			'from-url.mp4',
			'video/mp4',
		],
		[
			'MIME from the extension when Content-Type is missing',
			'filename',
			'clip.mp4',
			null,
			'clip.mp4',
			'video/mp4',
		],
		[
			'.mov without Content-Type is video/quicktime',
			'filename',
			'clip.MOV',
			null,
			'clip.MOV',
			'video/quicktime',
		],
		[
			'path separators and control characters removed',
			'filename',
			'../../etc/pass\twd.mov',
			'video/quicktime',
			'_.._etc_passwd.mov',
			'video/quicktime',
		],
	])('%s', async (_label, disposition, fileName, contentType, expectedName, expectedMime) => {
		const key = licensed(1);
		sim().setVideoFile(key, {
			size: 1000,
			fileName,
			disposition: disposition as 'filename',
			contentType,
		});
		const run = await download(key);
		expect(run.error).toBeUndefined();
		expect(run.items[0].json.fileName).toBe(expectedName);
		expect(run.items[0].json.mimeType).toBe(expectedMime);
		expect(run.items[0].binary?.data.fileName).toBe(expectedName);
		expect(run.items[0].binary?.data.mimeType).toBe(expectedMime);
	});

	test('neither header nor URL names the file: <video key>.<extension of the MIME type>', async () => {
		const key = licensed(2);
		sim().setVideoFile(key, { size: 1000, disposition: 'none', contentType: 'video/mp4' });
		const run = await download(key);
		expect(run.items[0].json.fileName).toBe(`${key.replace(/\//g, '_')}.mp4`);
		expect(run.items[0].json.mimeType).toBe('video/mp4');
	});
});

describe('an expired or refused signed URL', () => {
	test.each([400, 401, 403, 410] as const)(
		'storage %i once → a fresh URL, exactly two URL requests',
		async (status) => {
			const key = licensed(3);
			sim().setVideoFile(key, { size: 5000 });
			sim().faults.storageRefuse(status, 1);
			const run = await download(key);
			expect(run.error).toBeUndefined();
			expect(run.items[0].json.fileSize).toBe(5000);
			expect(apiCalls(sim(), '/download')).toHaveLength(2);
			expect(
				sim()
					.log.filter((e) => e.target === 'storage')
					.map((e) => e.status),
			).toEqual([status, 206]);
			// The item carries the URL that worked, not the refused one.
			const used = sim().log.filter((e) => e.target === 'storage')[1];
			expect(Object.fromEntries(new URL(run.items[0].json.url as string).searchParams)).toEqual(
				used.query,
			);
		},
	);

	test('refused twice → a clear error, no third URL', async () => {
		const key = licensed(3);
		sim().faults.storageRefuse(403, 2);
		const run = await download(key);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toMatch(/refused the download link twice/);
		expect(apiCalls(sim(), '/download')).toHaveLength(2);
	});

	test("server clock behind ours: expires_at is past here, but its lifetime (against the answer's Date) is five minutes: used as is", async () => {
		const behind = await startSimulator({ port: 0, now: () => Date.now() - 10 * 60_000 });
		try {
			const key = behind.partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
			const run = await download(key, {}, { baseUrl: behind.baseUrl });
			expect(run.error).toBeUndefined();
			expect(run.items[0].json.expires_at as number).toBeLessThan(Date.now() / 1000);
			expect(behind.log.filter((e) => e.target === 'api')).toHaveLength(1);
			expect(behind.log.filter((e) => e.target === 'storage').map((e) => e.status)).toEqual([206]);
		} finally {
			await behind.close();
		}
	});

	test('a URL that expired before use by our clock, and no Date header to read its lifetime from: replaced before storage is asked', async () => {
		const behind = await startSimulator({ port: 0, now: () => Date.now() - 10 * 60_000 });
		try {
			behind.faults.omitDateHeader(true);
			const key = behind.partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
			const run = await download(key, {}, { baseUrl: behind.baseUrl });
			expect(run.error).toBeUndefined();
			expect(behind.log.filter((e) => e.target === 'api')).toHaveLength(2);
			expect(behind.log.filter((e) => e.target === 'storage').map((e) => e.status)).toEqual([206]);
		} finally {
			await behind.close();
		}
	});
});

describe('never a short file', () => {
	test('a body cut short of its Content-Length fails the item', async () => {
		const key = licensed(4);
		sim().setVideoFile(key, { size: 2_000_000, rangeSupport: false });
		sim().faults.cutDownloadAfter(500_000, 5);
		const run = await download(key, { options: { maxRetries: 0 } });
		expect(run.items).toEqual([]);
		expect(run.error?.message).toMatch(/cut off|incomplete/);
	});

	test('a Content-Length larger than the body fails the item', async () => {
		const key = licensed(4);
		sim().setVideoFile(key, { size: 100_000 });
		sim().faults.declareWrongLength(+1000, 5);
		const run = await download(key, { options: { maxRetries: 0 } });
		expect(run.items).toEqual([]);
		expect(run.error?.message).toMatch(/cut off|incomplete/);
	});
});

describe('the API key stays with the API', () => {
	test('no Authorization header reaches storage, nor a storage redirect to another origin', async () => {
		const key = licensed(5);
		sim().setVideoFile(key, { size: 10_000 });
		sim().faults.redirectStorage(1);
		const run = await download(key);
		expect(run.error).toBeUndefined();
		const fetched = sim().log.filter((e) => e.target !== 'api');
		expect(fetched.map((e) => e.target)).toEqual(['storage', 'redirect']);
		for (const entry of fetched) {
			expect(entry.headers.authorization).toBeUndefined();
			expect(JSON.stringify(entry)).not.toContain(DEMO_PARTNER_KEY.split('.')[1]);
		}
		expect(apiCalls(sim(), '/download')[0].headers.authorization).toBe(
			`Bearer ${DEMO_PARTNER_KEY}`,
		);
	});
});
