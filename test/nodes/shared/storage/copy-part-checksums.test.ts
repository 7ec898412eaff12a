// Which checksum each part carries (part-checksum.ts, s3-ops.ts createUpload): SHA-256 where the
// store confirms x-amz-checksum-algorithm at Create; Content-MD5 where it ignores the header or
// refuses it (then Create is asked again without it). Every way, byte-exact and nothing left.
import { createHash } from 'node:crypto';

import { DEMO_PARTNER_KEY, fileBytes, fileSha256 } from '../../../../simulator';
import { useSimulator } from '../../../harness/simulator';
import { copyPartner, MIB, openUploads, readBack, type S3Request, useS3 } from './copy-harness';

const sim = useSimulator();
const s3 = useS3();
const licensed = (i = 0) => sim().partnerLicences(DEMO_PARTNER_KEY)[i].video_key;

/** Copies an 11 MiB master (three parts of 5 MiB) and checks what landed. */
async function copied(i: number, name = String(i)) {
	const key = licensed(i);
	const size = 11 * MIB + 3;
	sim().setVideoFile(key, { size, fileName: 'take.mov' });
	const run = await copyPartner(s3(), {
		videoKey: key,
		key: `sums/${name}.mov`,
		options: { parallelConnections: 3 },
	});
	expect(run.error).toBeUndefined();
	expect(run.items[0].json.sha256).toBe(fileSha256(key, size));
	expect(await readBack(s3(), `sums/${name}.mov`)).toEqual({ sha256: fileSha256(key, size), size });
	expect(await openUploads(s3(), 0)).toEqual([]);
	return { key, size, requests: s3().requests };
}

const of = (requests: S3Request[], op: string) => requests.filter((r) => r.op === op);

test('a store that confirms SHA256 at Create gets each part with x-amz-checksum-sha256 (the part’s own), no Content-MD5', async () => {
	const { requests } = await copied(0);
	const [create, ...more] = of(requests, 'CreateMultipartUpload');
	expect(more).toEqual([]);
	expect(create?.headers['x-amz-checksum-algorithm']).toBe('SHA256');
	const parts = of(requests, 'UploadPart');
	expect(parts).toHaveLength(3);
	for (const part of parts) {
		expect(part.status).toBe(200); // the server checked the part's SHA-256 (else 400 BadDigest)
		expect(Buffer.from(part.headers['x-amz-checksum-sha256'] ?? '', 'base64')).toHaveLength(32);
		expect(part.headers['content-md5']).toBeUndefined();
	}
	// Complete listed each part's checksum: the server refuses it otherwise (InvalidPart).
	expect(of(requests, 'CompleteMultipartUpload').map((r) => r.status)).toEqual([200]);
});

test('a store that ignores x-amz-checksum-algorithm (no echo) gets Content-MD5 parts', async () => {
	s3().setChecksums('ignore');
	const { requests } = await copied(1);
	expect(of(requests, 'CreateMultipartUpload')).toHaveLength(1);
	const parts = of(requests, 'UploadPart');
	expect(parts).toHaveLength(3);
	for (const part of parts) {
		expect(part.headers['content-md5']).toMatch(/^[A-Za-z0-9+/]{22}==$/);
		expect(part.headers['x-amz-checksum-sha256']).toBeUndefined();
	}
});

test.each([
	[400, 'InvalidArgument'],
	[400, 'InvalidRequest'],
	[501, 'NotImplemented'],
])(
	'a store that refuses the algorithm at Create (%i %s) is asked again without it, and gets Content-MD5 parts',
	async (status, code) => {
		s3().faults.add({ op: 'CreateMultipartUpload', status, code });
		const { requests } = await copied(2, `refused-${status}-${code}`);
		const creates = of(requests, 'CreateMultipartUpload');
		expect(creates.map((r) => [r.status, r.headers['x-amz-checksum-algorithm']])).toEqual([
			[status, 'SHA256'],
			[200, undefined],
		]);
		for (const part of of(requests, 'UploadPart'))
			expect(part.headers['content-md5']).toMatch(/^[A-Za-z0-9+/]{22}==$/);
	},
);

test('any other refusal at Create is the copy’s error, not asked again: nothing is left', async () => {
	const key = licensed(3);
	sim().setVideoFile(key, { size: 11 * MIB });
	s3().faults.add({ op: 'CreateMultipartUpload', status: 403, code: 'AccessDenied' });
	const run = await copyPartner(s3(), { videoKey: key, key: 'sums/denied.mov' });
	expect(run.error?.message).toMatch(/may not write to this bucket/);
	expect(of(s3().requests, 'CreateMultipartUpload')).toHaveLength(1);
	expect(await openUploads(s3(), 0)).toEqual([]);
});

test('the SHA-256 sent with each part is that part’s own bytes (hashed as it filled, never mixed with the next)', async () => {
	const { key, size, requests } = await copied(4);
	const sent = of(requests, 'UploadPart')
		.map((r) => [r.partNumber, r.headers['x-amz-checksum-sha256']] as const)
		.sort((a, b) => Number(a[0]) - Number(b[0]));
	const sliced = [0, 1, 2].map((i) =>
		createHash('sha256')
			.update(fileBytes(key, i * 5 * MIB, Math.min(size, (i + 1) * 5 * MIB)))
			.digest('base64'),
	);
	expect(sent.map(([, v]) => v)).toEqual(sliced);
});
