/**
 * The local S3 server (scripts/services/s3-server.js) speaks S3 as AWS's own JavaScript SDK expects:
 * @aws-sdk/client-s3 and lib-storage's multipart Upload run against it over real HTTP, and each
 * fault switch the copy's tests use is observed from the SDK's side (what a client sees).
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
	AbortMultipartUploadCommand,
	CompleteMultipartUploadCommand,
	CreateMultipartUploadCommand,
	GetObjectCommand,
	HeadObjectCommand,
	ListMultipartUploadsCommand,
	PutObjectCommand,
	S3Client,
	UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startS3Server } = require('../../scripts/services/s3-server.js');

interface Fault {
	op: string;
	partNumber?: number;
	times?: number;
	status?: number;
	code?: string;
	retryAfter?: number;
	reset?: boolean;
	delayMs?: number;
	stallMs?: number;
}
type S3 = {
	endpoint: string;
	region: string;
	accessKeyId: string;
	secretAccessKey: string;
	close(): Promise<void>;
	faults: {
		add(rule: Fault): void;
		clear(): void;
		hits: { op: string; partNumber?: number; status?: number }[];
	};
	requests: { op: string; partNumber?: number; status?: number; headers: Record<string, string> }[];
	listMultipartUploads(bucket: string): Promise<{ key: string; uploadId: string }[]>;
	setChecksums(mode: 'verify' | 'ignore'): void;
};
const BUCKET = 'gridbank-masters';
const VERSIONED = 'gridbank-versioned';
const MiB = 1024 * 1024;
let s3: S3;
let dir: string;

const client = (o: { secret?: string; maxAttempts?: number; checksums?: 'WHEN_REQUIRED' } = {}) =>
	new S3Client({
		...(o.checksums ? { requestChecksumCalculation: o.checksums } : {}),
		endpoint: s3.endpoint,
		region: s3.region,
		forcePathStyle: true,
		maxAttempts: o.maxAttempts ?? 3,
		credentials: {
			accessKeyId: s3.accessKeyId,
			secretAccessKey: o.secret ?? s3.secretAccessKey,
		},
	});
const sha256 = (d: Buffer) => crypto.createHash('sha256').update(d).digest('hex');
const md5b64 = (d: Buffer) => crypto.createHash('md5').update(d).digest('base64');

async function read(key: string, bucket = BUCKET) {
	const got = await client().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
	return Buffer.from(await got.Body!.transformToByteArray());
}
async function uploadsLeft(bucket = BUCKET) {
	const listed = await client().send(new ListMultipartUploadsCommand({ Bucket: bucket }));
	return (listed.Uploads ?? []).map((u) => u.Key);
}
async function absent(key: string) {
	await expect(
		client().send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })),
	).rejects.toMatchObject({
		$metadata: { httpStatusCode: 404 },
	});
}
const upload = (key: string, body: Buffer, maxAttempts = 3) =>
	new Upload({
		client: client({ maxAttempts }),
		params: { Bucket: BUCKET, Key: key, Body: body },
		partSize: 5 * MiB,
		queueSize: 2,
	}).done();

beforeAll(async () => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3-sdk-'));
	s3 = await startS3Server({
		directory: dir,
		buckets: [BUCKET, VERSIONED],
		versioning: [VERSIONED],
	});
});
afterEach(() => s3.faults.clear());
afterAll(async () => {
	await s3?.close();
	fs.rmSync(dir, { recursive: true, force: true });
});

test("lib-storage's multipart Upload lands byte-exact; HeadObject gives its size and multipart ETag; no upload is left", async () => {
	const body = crypto.randomBytes(12 * MiB + 5);
	const done = await upload('vid 1/master (take+1).mov', body);
	expect(done.ETag).toMatch(/^"[0-9a-f]{32}-3"$/);
	const head = await client().send(
		new HeadObjectCommand({ Bucket: BUCKET, Key: 'vid 1/master (take+1).mov' }),
	);
	expect(head.ContentLength).toBe(body.length);
	expect(head.ETag).toBe(done.ETag);
	expect(sha256(await read('vid 1/master (take+1).mov'))).toBe(sha256(body));
	expect(await uploadsLeft()).toEqual([]);
	expect(
		s3.requests
			.filter((r) => r.op === 'UploadPart')
			.map((r) => r.partNumber)
			.sort(),
	).toEqual(expect.arrayContaining([1, 2, 3]));
});

test('a versioned bucket answers PutObject, Complete and HeadObject with x-amz-version-id', async () => {
	const put = await client().send(
		new PutObjectCommand({ Bucket: VERSIONED, Key: 'small.bin', Body: Buffer.from('v1') }),
	);
	expect(put.VersionId).toBeTruthy();
	const head = await client().send(new HeadObjectCommand({ Bucket: VERSIONED, Key: 'small.bin' }));
	expect(head.VersionId).toBe(put.VersionId);
	const done = await new Upload({
		client: client(),
		params: { Bucket: VERSIONED, Key: 'big.bin', Body: crypto.randomBytes(6 * MiB) },
		partSize: 5 * MiB,
	}).done();
	expect(done.VersionId).toBeTruthy();
	const plain = await client().send(
		new PutObjectCommand({ Bucket: BUCKET, Key: 'plain.bin', Body: Buffer.from('x') }),
	);
	expect(plain.VersionId).toBeUndefined();
});

test('abort: the upload is listed until aborted, then gone (NoSuchUpload for a part or Complete), and no object', async () => {
	const c = client();
	const { UploadId } = await c.send(
		new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'aborted.mov' }),
	);
	await c.send(
		new UploadPartCommand({
			Bucket: BUCKET,
			Key: 'aborted.mov',
			UploadId,
			PartNumber: 1,
			Body: crypto.randomBytes(MiB),
		}),
	);
	expect(await uploadsLeft()).toEqual(['aborted.mov']);
	expect(await s3.listMultipartUploads(BUCKET)).toEqual([
		{ key: 'aborted.mov', uploadId: UploadId },
	]);
	await c.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: 'aborted.mov', UploadId }));
	expect(await uploadsLeft()).toEqual([]);
	expect(await s3.listMultipartUploads(BUCKET)).toEqual([]);
	await expect(
		c.send(
			new UploadPartCommand({
				Bucket: BUCKET,
				Key: 'aborted.mov',
				UploadId,
				PartNumber: 2,
				Body: Buffer.from('x'),
			}),
		),
	).rejects.toMatchObject({ name: 'NoSuchUpload', $metadata: { httpStatusCode: 404 } });
	await expect(
		c.send(
			new CompleteMultipartUploadCommand({
				Bucket: BUCKET,
				Key: 'aborted.mov',
				UploadId,
				MultipartUpload: { Parts: [{ PartNumber: 1, ETag: '"x"' }] },
			}),
		),
	).rejects.toMatchObject({ name: 'NoSuchUpload' });
	await absent('aborted.mov');
});

test('a wrong Content-MD5 or x-amz-checksum-sha256 gets 400 BadDigest and stores nothing', async () => {
	const body = Buffer.from('the bytes sent');
	await expect(
		client().send(
			new PutObjectCommand({
				Bucket: BUCKET,
				Key: 'bad-md5.bin',
				Body: body,
				ContentMD5: md5b64(Buffer.from('other')),
			}),
		),
	).rejects.toMatchObject({ name: 'BadDigest', $metadata: { httpStatusCode: 400 } });
	await absent('bad-md5.bin');
	const good = await client().send(
		new PutObjectCommand({
			Bucket: BUCKET,
			Key: 'good-md5.bin',
			Body: body,
			ContentMD5: md5b64(body),
		}),
	);
	expect(good.ETag).toBe(`"${crypto.createHash('md5').update(body).digest('hex')}"`);
	const c = client();
	const { UploadId } = await c.send(
		new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'bad-sha.bin' }),
	);
	await expect(
		c.send(
			new UploadPartCommand({
				Bucket: BUCKET,
				Key: 'bad-sha.bin',
				UploadId,
				PartNumber: 1,
				Body: body,
				ChecksumSHA256: crypto.createHash('sha256').update('other').digest('base64'),
			}),
		),
	).rejects.toMatchObject({ name: 'BadDigest', $metadata: { httpStatusCode: 400 } });
	await c.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: 'bad-sha.bin', UploadId }));
});

/** CompleteMultipartUpload of `key` with the parts listed. */
const completeWith = (
	c: S3Client,
	key: string,
	UploadId: string,
	Parts: { PartNumber: number; ETag?: string; ChecksumSHA256?: string }[],
) =>
	c.send(
		new CompleteMultipartUploadCommand({
			Bucket: BUCKET,
			Key: key,
			UploadId,
			MultipartUpload: { Parts },
		}),
	);

/** UploadPart with no checksum at all (the SDK adds CRC32 unless told it is not required). */
const barePart = (key: string, UploadId: string, Body: Buffer) =>
	client({ checksums: 'WHEN_REQUIRED', maxAttempts: 1 }).send(
		new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber: 1, Body }),
	);

test('ChecksumAlgorithm SHA256 at Create is echoed and then required as S3 requires it: of each part, and of each part listed at Complete', async () => {
	const c = client();
	const key = 'sha-parts.bin';
	const parts = [crypto.randomBytes(5 * MiB), crypto.randomBytes(1000)];
	const b64 = (d: Buffer) => crypto.createHash('sha256').update(d).digest('base64');
	const created = await c.send(
		new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key, ChecksumAlgorithm: 'SHA256' }),
	);
	expect(created.ChecksumAlgorithm).toBe('SHA256');
	const { UploadId } = created;
	// A part without the checksum the upload was made with is refused, as S3 refuses it.
	await expect(barePart(key, UploadId!, parts[0]!)).rejects.toMatchObject({
		name: 'InvalidRequest',
		$metadata: { httpStatusCode: 400 },
	});
	const sent: Array<{ PartNumber: number; ETag?: string; ChecksumSHA256?: string }> = [];
	for (const [i, part] of parts.entries()) {
		const answer = await c.send(
			new UploadPartCommand({
				Bucket: BUCKET,
				Key: key,
				UploadId,
				PartNumber: i + 1,
				Body: part,
				ChecksumSHA256: b64(part),
			}),
		);
		expect(answer.ChecksumSHA256).toBe(b64(part));
		sent.push({ PartNumber: i + 1, ETag: answer.ETag, ChecksumSHA256: answer.ChecksumSHA256 });
	}
	const complete = (Parts: typeof sent) => completeWith(c, key, UploadId!, Parts);
	// Listing the parts without their checksums (or with another) is refused; the upload stays.
	await expect(
		complete(sent.map(({ PartNumber, ETag }) => ({ PartNumber, ETag, ChecksumSHA256: undefined }))),
	).rejects.toMatchObject({ name: 'InvalidPart' });
	await complete(sent);
	expect(sha256(await read(key))).toBe(sha256(Buffer.concat(parts)));
	// An algorithm this server cannot check is refused at Create (400 InvalidArgument).
	await expect(
		c.send(
			new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key, ChecksumAlgorithm: 'SHA1' }),
		),
	).rejects.toMatchObject({ name: 'InvalidArgument', $metadata: { httpStatusCode: 400 } });
	expect(await uploadsLeft()).toEqual([]);
});

test("checksums 'ignore' (a store that does not know the header): the algorithm is not echoed, nor required of the parts", async () => {
	const c = client();
	s3.setChecksums('ignore');
	try {
		const created = await c.send(
			new CreateMultipartUploadCommand({
				Bucket: BUCKET,
				Key: 'ignored.bin',
				ChecksumAlgorithm: 'SHA256',
			}),
		);
		expect(created.ChecksumAlgorithm).toBeUndefined();
		const part = crypto.randomBytes(1000);
		expect((await barePart('ignored.bin', created.UploadId!, part)).ETag).toBeDefined();
		await c.send(
			new AbortMultipartUploadCommand({
				Bucket: BUCKET,
				Key: 'ignored.bin',
				UploadId: created.UploadId,
			}),
		);
	} finally {
		s3.setChecksums('verify');
	}
});

test('Complete with a non-last part under 5 MiB gets 400 EntityTooSmall, a wrong ETag InvalidPart; the upload stays until aborted', async () => {
	const c = client();
	const key = 'too-small.mov';
	const { UploadId } = await c.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
	const parts = [];
	for (const n of [1, 2]) {
		const r = await c.send(
			new UploadPartCommand({
				Bucket: BUCKET,
				Key: key,
				UploadId,
				PartNumber: n,
				Body: crypto.randomBytes(MiB),
			}),
		);
		parts.push({ PartNumber: n, ETag: r.ETag });
	}
	const complete = (Parts: { PartNumber: number; ETag?: string }[]) =>
		completeWith(c, key, UploadId!, Parts);
	await expect(complete(parts)).rejects.toMatchObject({
		name: 'EntityTooSmall',
		$metadata: { httpStatusCode: 400 },
	});
	await expect(complete([{ PartNumber: 1, ETag: '"0123"' }])).rejects.toMatchObject({
		name: 'InvalidPart',
	});
	await absent(key);
	expect(await uploadsLeft()).toEqual([key]);
	await c.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId }));
	expect(await uploadsLeft()).toEqual([]);
});

test('a wrong secret is refused (403 SignatureDoesNotMatch) and stores nothing', async () => {
	await expect(
		client({ secret: 'not-the-secret' }).send(
			new PutObjectCommand({ Bucket: BUCKET, Key: 'wrong-secret.bin', Body: Buffer.from('x') }),
		),
	).rejects.toMatchObject({ name: 'SignatureDoesNotMatch', $metadata: { httpStatusCode: 403 } });
	await absent('wrong-secret.bin');
});

test('fault switches as the SDK sees them: 503 SlowDown with Retry-After, 500, a reset mid-part are retried; the object is byte-exact', async () => {
	s3.faults.add({ op: 'UploadPart', partNumber: 2, status: 503, code: 'SlowDown', retryAfter: 1 });
	s3.faults.add({ op: 'UploadPart', partNumber: 1, status: 500 });
	s3.faults.add({ op: 'UploadPart', partNumber: 3, reset: true });
	s3.faults.add({ op: 'CreateMultipartUpload', status: 503, code: 'SlowDown' });
	s3.requests.length = 0;
	const body = crypto.randomBytes(11 * MiB);
	await upload('retried.mov', body);
	expect(sha256(await read('retried.mov'))).toBe(sha256(body));
	const hits = [...s3.faults.hits].sort((a, b) => (a.partNumber ?? 0) - (b.partNumber ?? 0));
	expect(hits).toEqual([
		{ op: 'CreateMultipartUpload', partNumber: undefined, status: 503 },
		{ op: 'UploadPart', partNumber: 1, status: 500 },
		{ op: 'UploadPart', partNumber: 2, status: 503 },
		{ op: 'UploadPart', partNumber: 3, status: 0 },
	]);
	const tries = (n: number) =>
		s3.requests.filter((r) => r.op === 'UploadPart' && r.partNumber === n).length;
	expect([tries(1), tries(2), tries(3)]).toEqual([2, 2, 2]);
	expect(
		s3.requests.filter((r) => r.op === 'UploadPart' && r.partNumber === 3).map((r) => r.status),
	).toEqual([0, 200]);
	expect(await uploadsLeft()).toEqual([]);
	s3.faults.hits.length = 0;
});

test('a part that fails every try makes the Upload fail with the S3 error; lib-storage aborts and nothing is left', async () => {
	s3.faults.add({ op: 'UploadPart', partNumber: 2, status: 500, code: 'InternalError', times: 10 });
	await expect(upload('failed.mov', crypto.randomBytes(11 * MiB), 2)).rejects.toMatchObject({
		name: 'InternalError',
	});
	expect(await uploadsLeft()).toEqual([]);
	expect(await s3.listMultipartUploads(BUCKET)).toEqual([]);
	await absent('failed.mov');
});

test('Complete failing (500 every try) leaves no object; the SDK sees InternalError', async () => {
	s3.faults.add({ op: 'CompleteMultipartUpload', status: 500, times: 10 });
	await expect(upload('no-complete.mov', crypto.randomBytes(6 * MiB), 2)).rejects.toMatchObject({
		name: 'InternalError',
	});
	await absent('no-complete.mov');
	expect(s3.faults.hits.filter((h) => h.op === 'CompleteMultipartUpload')).toHaveLength(2);
	s3.faults.hits.length = 0;
});

test('a slow part (delayMs) and a stalled body (stallMs) still land; each takes at least its hold', async () => {
	const c = client();
	const body = Buffer.from(crypto.randomBytes(2 * MiB));
	s3.faults.add({ op: 'PutObject', delayMs: 600 });
	let t0 = Date.now();
	await c.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'slow.bin', Body: body }));
	expect(Date.now() - t0).toBeGreaterThanOrEqual(550);
	s3.faults.add({ op: 'PutObject', stallMs: 600 });
	t0 = Date.now();
	await c.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'stalled.bin', Body: body }));
	expect(Date.now() - t0).toBeGreaterThanOrEqual(550);
	expect(sha256(await read('stalled.bin'))).toBe(sha256(body));
	expect(s3.faults.hits.slice(-2)).toEqual([
		{ op: 'PutObject', partNumber: undefined, status: 200 },
		{ op: 'PutObject', partNumber: undefined, status: 200 },
	]);
});

test('HeadObject, AbortMultipartUpload and ListMultipartUploads faults reach the SDK as their errors', async () => {
	await client().send(
		new PutObjectCommand({ Bucket: BUCKET, Key: 'there.bin', Body: Buffer.from('x') }),
	);
	s3.faults.add({ op: 'HeadObject', status: 403, times: 1 });
	await expect(
		client({ maxAttempts: 1 }).send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'there.bin' })),
	).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
	s3.faults.add({ op: 'ListMultipartUploads', status: 503, code: 'SlowDown', times: 1 });
	await expect(
		client({ maxAttempts: 1 }).send(new ListMultipartUploadsCommand({ Bucket: BUCKET })),
	).rejects.toMatchObject({ name: 'SlowDown', $metadata: { httpStatusCode: 503 } });
	const c = client({ maxAttempts: 1 });
	const { UploadId } = await c.send(
		new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'abort-fails.mov' }),
	);
	s3.faults.add({ op: 'AbortMultipartUpload', status: 500 });
	await expect(
		c.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: 'abort-fails.mov', UploadId })),
	).rejects.toMatchObject({ name: 'InternalError' });
	expect(await uploadsLeft()).toEqual(['abort-fails.mov']);
	await c.send(
		new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: 'abort-fails.mov', UploadId }),
	);
	expect(await uploadsLeft()).toEqual([]);
});
