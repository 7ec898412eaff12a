// A copy under failure (the S3 server's fault switches, the simulator's storage faults): part
// failures are retried within the budget and the object lands whole; a failure that stays aborts
// the multipart upload, so the bucket holds no upload and no object afterwards.
import { DEMO_PARTNER_KEY, fileSha256 } from '../../../../simulator';
import { useSimulator } from '../../../harness/simulator';
import { copyPartner, MIB, objectsIn, openUploads, readBack, useS3 } from './copy-harness';

const sim = useSimulator();
const s3 = useS3();
const SIZE = 12 * MIB + 7;
let n = 0;
/** A licensed video of SIZE bytes, under a key of its own for this test. */
function video() {
	const key = sim().partnerLicences(DEMO_PARTNER_KEY)[n % 5].video_key;
	sim().setVideoFile(key, { size: SIZE });
	return { videoKey: key, key: `faults/${++n}.mov`, sha256: fileSha256(key, SIZE) };
}

test.each([
	['500 InternalError on part 2', { status: 500, code: 'InternalError' }],
	['503 SlowDown with Retry-After: 1 on part 2', { status: 503, code: 'SlowDown', retryAfter: 1 }],
	['a reset mid-body of part 2', { reset: true }],
	['a slow part 2 (held 1.5 s)', { delayMs: 1500 }],
])('%s: retried (or, when slow, waited for), the object lands whole', async (_, fault) => {
	const v = video();
	s3().faults.add({ op: 'UploadPart', partNumber: 2, ...fault });
	const run = await copyPartner(s3(), { videoKey: v.videoKey, key: v.key });
	expect(run.error).toBeUndefined();
	expect(run.items[0].json).toMatchObject({ size: SIZE, sha256: v.sha256 });
	expect(s3().faults.hits).toHaveLength(1);
	expect(await readBack(s3(), v.key)).toEqual({ sha256: v.sha256, size: SIZE });
	expect(await openUploads(s3(), 0)).toEqual([]);
});

test.each([
	[
		'a part failing 500 every time',
		{ op: 'UploadPart', partNumber: 2, status: 500, times: 10 },
		/internal error|HTTP 500/,
	],
	[
		'Complete failing 500 every time',
		{ op: 'CompleteMultipartUpload', status: 500, times: 10 },
		/internal error|HTTP 500/,
	],
	[
		'a part reset every time',
		{ op: 'UploadPart', partNumber: 3, reset: true, times: 10 },
		// The server's reset may reach the client as a 500 its framework wrote before the socket closed.
		/could not be reached|internal error/,
	],
	[
		'Create refused 403 AccessDenied',
		{ op: 'CreateMultipartUpload', status: 403, code: 'AccessDenied' },
		/may not write/,
	],
])('%s: the item fails, the upload is aborted, no object', async (_, fault, message) => {
	const v = video();
	s3().faults.add(fault);
	const run = await copyPartner(
		s3(),
		{ videoKey: v.videoKey, key: v.key, options: { maxRetries: 1 } },
		{ continueOnFail: true },
	);
	expect(String(run.items[0].json.error)).toMatch(message);
	expect(await openUploads(s3())).toEqual([]);
	expect((await objectsIn(s3())).map((o) => o.key)).not.toContain(v.key);
	if (fault.op !== 'CreateMultipartUpload')
		expect(s3().requests.filter((r) => r.op === 'AbortMultipartUpload')).toHaveLength(1);
});

test('GridBank storage cutting every body after 6 MiB: the item fails, the upload is aborted, no object', async () => {
	const v = video();
	sim().faults.cutDownloadAfter(6 * MIB, 1000);
	const run = await copyPartner(
		s3(),
		{ videoKey: v.videoKey, key: v.key, options: { maxRetries: 1, parallelConnections: 1 } },
		{ continueOnFail: true },
	);
	expect(run.items[0].json.error).toBe('The download was cut off before the whole file arrived');
	expect(s3().requests.some((r) => r.op === 'UploadPart')).toBe(true);
	expect(await openUploads(s3())).toEqual([]);
	expect((await objectsIn(s3())).map((o) => o.key)).not.toContain(v.key);
});

test('a storage body cut mid-transfer resumes: the object is still byte-exact', async () => {
	const v = video();
	sim().faults.cutDownloadAfter(7 * MIB + 3, 1);
	const run = await copyPartner(s3(), {
		videoKey: v.videoKey,
		key: v.key,
		options: { parallelConnections: 1 },
	});
	expect(run.error).toBeUndefined();
	expect(await readBack(s3(), v.key)).toEqual({ sha256: v.sha256, size: SIZE });
});

test('cancel mid-copy: the run ends, the multipart upload is aborted, no object', async () => {
	const v = video();
	sim().faults.slowDownload(2 * MIB);
	let cancel: () => void = () => {};
	const running = copyPartner(
		s3(),
		{ videoKey: v.videoKey, key: v.key, options: { parallelConnections: 1 } },
		{ onStart: (execution) => (cancel = execution.cancel) },
	);
	// Cancelled once the first part is in the bucket's multipart upload.
	for (
		let i = 0;
		i < 200 && !s3().requests.some((r) => r.op === 'UploadPart' && r.status === 200);
		i++
	)
		await new Promise((r) => setTimeout(r, 50));
	expect(s3().requests.some((r) => r.op === 'UploadPart')).toBe(true);
	cancel();
	const run = await running;
	sim().faults.slowDownload(0);
	expect(run.run.status).toBe('canceled');
	expect(run.items).toEqual([]);
	expect(await openUploads(s3(), 10_000)).toEqual([]);
	expect((await objectsIn(s3())).map((o) => o.key)).not.toContain(v.key);
});
