// Copy to Storage through n8n-core's real engine: GridBank's simulator → the local S3 server,
// byte-exact, the item saying what landed, multipart with parts in parallel, If Exists.
import { DEMO_PARTNER_KEY, fileSha256 } from '../../../../simulator';
import { useSimulator } from '../../../harness/simulator';
import {
	copyEnterprise,
	copyPartner,
	MIB,
	objectsIn,
	openUploads,
	readBack,
	useS3,
} from './copy-harness';

const sim = useSimulator();
const s3 = useS3();
const licensed = (i = 0) => sim().partnerLicences(DEMO_PARTNER_KEY)[i].video_key;

test('Partner: a 12 MiB master in 3 parts of 5 MiB (each with the SHA-256 the store confirmed), byte-exact, the item says what landed', async () => {
	const key = licensed();
	const size = 12 * MIB + 5;
	sim().setVideoFile(key, { size, fileName: 'master.mov' });
	const run = await copyPartner(s3(), { videoKey: key, options: { parallelConnections: 4 } });
	expect(run.error).toBeUndefined();
	const json = run.items[0].json;
	const expectedKey = `gridbank/${key}/master.mov`;
	expect(json).toMatchObject({
		video_key: key,
		bucket: 'gridbank-masters',
		key: expectedKey,
		size,
		sha256: fileSha256(key, size),
		skipped: false,
	});
	expect(json.etag).toMatch(/^"?[0-9a-f]{32}-3"?$/);
	expect(json.seconds).toBeGreaterThan(0);
	expect(json.mbps).toBeGreaterThan(0);
	expect(run.items[0].binary).toBeUndefined();
	expect(await readBack(s3(), expectedKey)).toEqual({ sha256: fileSha256(key, size), size });
	const parts = s3().requests.filter((r) => r.op === 'UploadPart');
	expect(parts.map((r) => r.partNumber).sort()).toEqual([1, 2, 3]);
	for (const part of parts) {
		expect(part.headers['x-amz-checksum-sha256']).toMatch(/^[A-Za-z0-9+/]{43}=$/);
		expect(part.headers['content-md5']).toBeUndefined();
	}
	expect(await openUploads(s3(), 0)).toEqual([]);
});

test('Enterprise: a small original goes as one PUT, under the Key given, with its search_id', async () => {
	const videoId = licensed(2);
	const size = 300_001;
	sim().setVideoFile(videoId, { size });
	const run = await copyEnterprise(s3(), {
		videoId,
		searchId: 'srch_1',
		key: 'masters/one.mp4',
	});
	expect(run.error).toBeUndefined();
	expect(run.items[0].json).toMatchObject({
		video_id: videoId,
		search_id: 'srch_1',
		key: 'masters/one.mp4',
		size,
		sha256: fileSha256(videoId, size),
	});
	expect(s3().requests.map((r) => r.op)).toEqual(['HeadObject', 'PutObject']);
	expect(run.calls.map((c) => c.query.search_id)).toEqual(['srch_1']);
	expect(await readBack(s3(), 'masters/one.mp4')).toEqual({
		sha256: fileSha256(videoId, size),
		size,
	});
});

test('If Exists: Skip keeps an object of the same size, Fail fails the item, Overwrite replaces it', async () => {
	const key = licensed(1);
	const size = 2 * MIB;
	sim().setVideoFile(key, { size });
	const target = { videoKey: key, key: 'exists/one.mov' };
	expect((await copyPartner(s3(), target)).error).toBeUndefined();

	s3().requests.length = 0;
	const skipped = await copyPartner(s3(), target);
	expect(skipped.items[0].json).toMatchObject({ skipped: true, size, sha256: null });
	expect(s3().requests.filter((r) => r.method !== 'HEAD')).toEqual([]);

	const failed = await copyPartner(s3(), { ...target, ifExists: 'fail' }, { continueOnFail: true });
	expect(String(failed.items[0].json.error)).toContain('already exists');
	// Fail decides before GridBank is asked for a download link.
	expect(failed.calls).toEqual([]);

	s3().requests.length = 0;
	const replaced = await copyPartner(s3(), { ...target, ifExists: 'overwrite' });
	expect(replaced.items[0].json).toMatchObject({ skipped: false, size });
	expect(s3().requests.map((r) => r.op)).toEqual(['PutObject']);
	expect((await objectsIn(s3())).filter((o) => o.key === 'exists/one.mov')).toHaveLength(1);
});

test('bad input fails before any request: a bucket name S3 refuses, a key with a ".." segment', async () => {
	const key = licensed();
	for (const parameters of [{ bucket: 'Not_A_Bucket' }, { key: 'a/../b' }]) {
		const run = await copyPartner(s3(), { videoKey: key, ...parameters }, { continueOnFail: true });
		expect(String(run.items[0].json.error)).toMatch(/Bucket|Key/);
		expect(run.calls).toEqual([]);
	}
	expect(s3().requests).toEqual([]);
});

test('parts in flight never exceed the plan (Parallel Connections 2: two at once, never three)', async () => {
	const key = licensed(4);
	const size = 16 * MIB;
	sim().setVideoFile(key, { size });
	// Every part is held 800 ms by the store, so parts that overlap are seen overlapping.
	s3().faults.add({ op: 'UploadPart', delayMs: 800, times: 10 });
	let most = 0;
	const watch = setInterval(() => {
		const open = s3().requests.filter((r) => r.op === 'UploadPart' && r.status === undefined);
		most = Math.max(most, open.length);
	}, 10);
	const run = await copyPartner(s3(), {
		videoKey: key,
		key: 'window/two.mov',
		ifExists: 'overwrite',
		options: { parallelConnections: 2 },
	});
	clearInterval(watch);
	expect(run.error).toBeUndefined();
	expect(s3().requests.filter((r) => r.op === 'UploadPart')).toHaveLength(4);
	expect(most).toBe(2);
});
