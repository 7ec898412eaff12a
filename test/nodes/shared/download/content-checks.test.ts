// What happened, in the item, through n8n-core's real engine: every downloaded file carries the
// SHA-256 of its bytes (hashed in order as they passed) and the transfer's figures; the content
// check storage states (simulator switch sendChecksum) is verified, and a wrong one fails the
// item clearly with nothing stored, for a download and a copy alike.
import { type ChecksumKind, DEMO_PARTNER_KEY, fileSha256 } from '../../../../simulator';
import { partnerDownloads } from './partner-download';
import { binarySha256, storedFiles } from '../../../harness/run-node';
import { storeKeepsPartialFiles } from '../../../harness/engine';
import { useSimulator } from '../../../harness/simulator';
import { planSegments } from '../../../../nodes/shared/download/segment-plan';
import { copyPartner, MIB, objectsIn, openUploads, useS3 } from '../storage/copy-harness';
import { openAllConnections } from '../../../harness/open-all-connections';

openAllConnections();

const sim = useSimulator();
const s3 = useS3();
const licensed = (i = 0) => sim().partnerLicences(DEMO_PARTNER_KEY)[i].video_key;
const SIZE = 9 * MIB + 13;

const download = partnerDownloads();

const CHECKS: Array<[ChecksumKind, string]> = [
	['amz-sha256', 'x-amz-checksum-sha256'],
	['goog-md5', 'x-goog-hash md5'],
	['etag-md5', 'ETag md5'],
	['goog-crc32c', 'x-goog-hash crc32c'],
];

describe.each([1, 8])('Parallel Connections %i', (asked) => {
	// The connections the plan uses for this size (fewer than asked for a small file).
	const connections = planSegments(SIZE, asked)?.connections ?? 1;
	test.each(CHECKS)('%s: verified, named in transfer.contentCheck', async (kind, source) => {
		const key = licensed();
		sim().setVideoFile(key, { size: SIZE });
		sim().faults.sendChecksum(kind);
		const run = await download(key, asked);
		expect(run.error).toBeUndefined();
		if (asked > 1) expect(connections).toBeGreaterThan(1);
		expect(run.items[0].json).toMatchObject({
			fileSize: SIZE,
			sha256: fileSha256(key, SIZE),
			transfer: { connections, resumes: 0, restarts: 0, contentCheck: source },
		});
		expect(await binarySha256(run.items[0])).toBe(fileSha256(key, SIZE));
	});

	test.each(CHECKS)('%s of other bytes: the item fails, nothing stored', async (kind, source) => {
		const key = licensed();
		sim().setVideoFile(key, { size: SIZE });
		sim().faults.sendChecksum(kind, { wrong: true });
		const run = await download(key, asked);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toBe(
			`The downloaded file does not match the checksum GridBank's storage states (${source})`,
		);
		expect(run.error?.description).toMatch(
			/^Storage states (SHA256|MD5|CRC32C) [0-9a-f]+ for this file, but the bytes received hash to [0-9a-f]+\. Nothing was passed on\./,
		);
		if (!storeKeepsPartialFiles) expect(storedFiles(run)).toEqual([]);
	});
});

test('a composite x-amz-checksum-sha256 (of the parts) is not a hash of the bytes: not checked', async () => {
	const key = licensed();
	sim().setVideoFile(key, { size: SIZE });
	sim().faults.sendChecksum('amz-sha256-composite', { wrong: true });
	const run = await download(key, 4);
	expect(run.error).toBeUndefined();
	expect(run.items[0].json.transfer).toMatchObject({ contentCheck: null });
});

test('the default multipart-style ETag is not an MD5: no check, the SHA-256 is still there', async () => {
	const key = licensed();
	sim().setVideoFile(key, { size: SIZE });
	const run = await download(key, 8);
	expect(run.items[0].json).toMatchObject({
		sha256: fileSha256(key, SIZE),
		transfer: {
			connections: planSegments(SIZE, 8)?.connections,
			resumes: 0,
			restarts: 0,
			handedOver: expect.any(Number), // a busy machine can slow one loopback connection
			waits: 0,
			waitedSeconds: 0,
			contentCheck: null,
		},
	});
	const { seconds, mbps } = run.items[0].json.transfer as { seconds: number; mbps: number };
	expect(seconds).toBeGreaterThan(0);
	expect(mbps).toBeCloseTo(SIZE / 1e6 / seconds, 1);
});

test('resumes, restarts and waits are counted over the whole transfer', async () => {
	const key = licensed();
	sim().setVideoFile(key, { size: SIZE });
	sim().faults.cutDownloadAfter(1_000_000, 1); // the single stream breaks once: a resume
	const resumed = await download(key, 1);
	expect(resumed.items[0].json.transfer).toMatchObject({ resumes: 1, restarts: 0 });

	sim().faults.replaceObject({ atRequests: [2] }); // a segment meets a new version: a restart
	const restarted = await download(key, 8);
	expect(restarted.error).toBeUndefined();
	expect(restarted.items[0].json.transfer).toMatchObject({ restarts: 1 });

	sim().faults.busyParts('1', 2); // two segments told to wait 1 s (503 SlowDown)
	const waited = await download(key, 8);
	expect(waited.items[0].json.transfer).toMatchObject({ waits: 2, waitedSeconds: 2 });
});

test('Copy to Storage: a wrong checksum fails the item, the upload is aborted and no object lands', async () => {
	const key = licensed();
	sim().setVideoFile(key, { size: SIZE });
	sim().faults.sendChecksum('amz-sha256', { wrong: true });
	const run = await copyPartner(s3(), { videoKey: key, key: 'checked/wrong.mov' });
	expect(run.items).toEqual([]);
	expect(run.error?.message).toMatch(/does not match the checksum .* \(x-amz-checksum-sha256\)$/);
	expect(await objectsIn(s3())).not.toContainEqual(
		expect.objectContaining({ key: 'checked/wrong.mov' }),
	);
	expect(await openUploads(s3())).toEqual([]);
});

test('Copy to Storage: a right checksum is verified and the item has its transfer figures', async () => {
	const key = licensed();
	sim().setVideoFile(key, { size: SIZE });
	sim().faults.sendChecksum('etag-md5');
	const run = await copyPartner(s3(), { videoKey: key, key: 'checked/right.mov' });
	expect(run.error).toBeUndefined();
	expect(run.items[0].json).toMatchObject({
		size: SIZE,
		sha256: fileSha256(key, SIZE),
		transfer: { contentCheck: 'ETag md5', resumes: 0, restarts: 0 },
	});
});
