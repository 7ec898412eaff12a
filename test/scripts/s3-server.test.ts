/**
 * The local S3 server (scripts/services/s3-server.js) verifies AWS Signature V4 as S3 does: s3rver alone
 * accepts any V4 signature. Requests are signed here by a small signer of the test's own, written
 * from AWS's SigV4 documentation (not the server's code), and sent over real HTTP.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startS3Server } = require('../../scripts/services/s3-server.js');

type S3 = {
	endpoint: string;
	region: string;
	accessKeyId: string;
	secretAccessKey: string;
	directory: string;
	close(): Promise<void>;
};
const BUCKET = 'gridbank-masters';
let s3: S3;
let dir: string;

beforeAll(async () => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3-sigv4-'));
	s3 = await startS3Server({ directory: dir, buckets: [BUCKET] });
});
afterAll(async () => {
	await s3?.close();
	fs.rmSync(dir, { recursive: true, force: true });
});

const sha256 = (d: string | Buffer) => crypto.createHash('sha256').update(d).digest('hex');
const hmac = (k: string | Buffer, d: string) => crypto.createHmac('sha256', k).update(d).digest();
// AWS's UriEncode: every byte but A-Z a-z 0-9 - . _ ~ percent-encoded, upper-case hex.
const enc = (s: string) =>
	Array.from(Buffer.from(s, 'utf8'))
		.map((b) =>
			/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
				? String.fromCharCode(b)
				: `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
		)
		.join('');

interface SignOptions {
	method: string;
	key: string; // object key, unencoded ('' for the bucket)
	query?: Record<string, string>;
	body?: Buffer;
	secret?: string;
	accessKeyId?: string;
	payloadHash?: string; // default: the body's SHA-256
	presign?: boolean;
	service?: string; // default 's3'
}

/** A signed request (URL and headers) for the local server, from AWS's SigV4 steps. */
function signed(o: SignOptions): { url: string; headers: Record<string, string> } {
	const { host } = new URL(s3.endpoint);
	const amzDate = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
	const service = o.service ?? 's3';
	const scope = `${amzDate.slice(0, 8)}/${s3.region}/${service}/aws4_request`;
	const accessKeyId = o.accessKeyId ?? s3.accessKeyId;
	const uri = `/${BUCKET}${o.key ? '/' + o.key.split('/').map(enc).join('/') : ''}`;
	const headers: Record<string, string> = { host };
	const query: Record<string, string> = { ...(o.query ?? {}) };
	let payloadHash = o.payloadHash ?? sha256(o.body ?? '');
	if (o.presign) {
		payloadHash = 'UNSIGNED-PAYLOAD';
		Object.assign(query, {
			'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
			'X-Amz-Credential': `${accessKeyId}/${scope}`,
			'X-Amz-Date': amzDate,
			'X-Amz-Expires': '300',
			'X-Amz-SignedHeaders': 'host',
		});
	} else {
		headers['x-amz-date'] = amzDate;
		headers['x-amz-content-sha256'] = payloadHash;
	}
	const names = Object.keys(headers).sort();
	const canonicalQuery = Object.keys(query)
		.sort()
		.map((k) => `${enc(k)}=${enc(query[k])}`)
		.join('&');
	const canonicalRequest = [
		o.method,
		uri,
		canonicalQuery,
		names.map((n) => `${n}:${headers[n]}\n`).join(''),
		names.join(';'),
		payloadHash,
	].join('\n');
	const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
	let k = hmac(`AWS4${o.secret ?? s3.secretAccessKey}`, amzDate.slice(0, 8));
	for (const part of [s3.region, service, 'aws4_request']) k = hmac(k, part);
	const sig = hmac(k, toSign).toString('hex');
	delete headers.host; // fetch sets it, to the same value
	if (o.presign) {
		return { url: `${s3.endpoint}${uri}?${canonicalQuery}&X-Amz-Signature=${sig}`, headers };
	}
	headers.authorization = `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${sig}`;
	return { url: `${s3.endpoint}${uri}${canonicalQuery ? '?' + canonicalQuery : ''}`, headers };
}

async function send(o: SignOptions) {
	const { url, headers } = signed(o);
	const res = await fetch(url, { method: o.method, headers, body: o.body });
	return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}
const errorCode = (body: Buffer) => /<Code>([^<]*)<\/Code>/.exec(body.toString())?.[1];

test('a correctly signed PUT and GET store and return the bytes; the key may hold spaces, brackets and a plus', async () => {
	const key = 'gridbank/vid 42/Sunset (take+1).mov';
	const body = crypto.randomBytes(64 * 1024);
	const put = await send({ method: 'PUT', key, body });
	expect(put.status).toBe(200);
	const get = await send({ method: 'GET', key });
	expect(get.status).toBe(200);
	expect(sha256(get.body)).toBe(sha256(body));
	const list = await send({
		method: 'GET',
		key: '',
		query: { 'list-type': '2', prefix: 'gridbank/' },
	});
	expect(list.status).toBe(200);
	expect(list.body.toString()).toContain('<Key>gridbank/vid 42/Sunset (take+1).mov</Key>');
});

test('a wrong secret gets 403 SignatureDoesNotMatch and stores nothing; an unknown access key gets 403 InvalidAccessKeyId', async () => {
	const body = Buffer.from('not with this secret');
	const wrong = await send({
		method: 'PUT',
		key: 'wrong-secret.bin',
		body,
		secret: 'not-the-secret',
	});
	expect(wrong.status).toBe(403);
	expect(errorCode(wrong.body)).toBe('SignatureDoesNotMatch');
	const unknown = await send({
		method: 'PUT',
		key: 'unknown-key.bin',
		body,
		accessKeyId: 'AKIDNOBODY',
	});
	expect(unknown.status).toBe(403);
	expect(errorCode(unknown.body)).toBe('InvalidAccessKeyId');
	for (const key of ['wrong-secret.bin', 'unknown-key.bin'])
		expect((await send({ method: 'GET', key })).status).toBe(404);
	// A read with the wrong secret is refused too, not only a write.
	await send({ method: 'PUT', key: 'readable.bin', body });
	const read = await send({ method: 'GET', key: 'readable.bin', secret: 'not-the-secret' });
	expect(read.status).toBe(403);
	expect(errorCode(read.body)).toBe('SignatureDoesNotMatch');
});

test('a request signed for another service than s3 (with the right secret) is refused, as S3 does', async () => {
	const res = await send({ method: 'GET', key: 'readable.bin', service: '127' });
	expect(res.status).toBe(400);
	expect(errorCode(res.body)).toBe('AuthorizationHeaderMalformed');
});

test('a signed request changed on the way (another key than signed) is refused', async () => {
	const { url, headers } = signed({ method: 'GET', key: 'readable.bin' });
	const res = await fetch(url.replace('readable.bin', 'other.bin'), { headers });
	expect(res.status).toBe(403);
	expect(errorCode(Buffer.from(await res.arrayBuffer()))).toBe('SignatureDoesNotMatch');
});

test('presigned URLs (X-Amz-* query): the right secret reads, a wrong secret gets 403', async () => {
	const body = Buffer.from('presigned');
	expect((await send({ method: 'PUT', key: 'presigned.txt', body })).status).toBe(200);
	const ok = await send({ method: 'GET', key: 'presigned.txt', presign: true });
	expect(ok.status).toBe(200);
	expect(ok.body.toString()).toBe('presigned');
	const bad = await send({ method: 'GET', key: 'presigned.txt', presign: true, secret: 'nope' });
	expect(bad.status).toBe(403);
	expect(errorCode(bad.body)).toBe('SignatureDoesNotMatch');
});

test('a body that does not match its signed x-amz-content-sha256 is refused (400) and not stored; anonymous requests get 403', async () => {
	const res = await send({
		method: 'PUT',
		key: 'tampered.bin',
		body: Buffer.from('the bytes sent'),
		payloadHash: sha256('the bytes signed'),
	});
	expect(res.status).toBe(400);
	expect(errorCode(res.body)).toBe('XAmzContentSHA256Mismatch');
	expect((await send({ method: 'GET', key: 'tampered.bin' })).status).toBe(404);
	const anonymous = await fetch(`${s3.endpoint}/${BUCKET}/readable.bin`);
	expect(anonymous.status).toBe(403);
	expect(errorCode(Buffer.from(await anonymous.arrayBuffer()))).toBe('AccessDenied');
});

test('multipart upload, signed at every step, with a part larger than the in-memory bound, its parts listed (ListParts): the object is byte-exact', async () => {
	const key = 'gridbank/vid-7/master.mov';
	const parts = [crypto.randomBytes(9 * 1024 * 1024), crypto.randomBytes(1024 * 1024)];
	const created = await send({ method: 'POST', key, query: { uploads: '' } });
	expect(created.status).toBe(200);
	const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(created.body.toString())![1];
	const etags: string[] = [];
	for (let i = 0; i < parts.length; i++) {
		const { url, headers } = signed({
			method: 'PUT',
			key,
			query: { partNumber: String(i + 1), uploadId },
			body: parts[i],
		});
		const res = await fetch(url, { method: 'PUT', headers, body: parts[i] });
		expect(res.status).toBe(200);
		etags.push(res.headers.get('etag')!);
	}
	// One part signed with the wrong secret is refused.
	const bad = await send({
		method: 'PUT',
		key,
		query: { partNumber: '3', uploadId },
		body: parts[1],
		secret: 'nope',
	});
	expect(bad.status).toBe(403);
	// ListParts (which n8n's AWS S3 node calls before completing): both parts, sizes and ETags.
	const listed = (
		await send({ method: 'GET', key, query: { uploadId, 'max-parts': '900' } })
	).body.toString();
	expect([...listed.matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => m[1])).toEqual([
		'1',
		'2',
	]);
	expect([...listed.matchAll(/<Size>(\d+)<\/Size>/g)].map((m) => Number(m[1]))).toEqual(
		parts.map((p) => p.length),
	);
	expect(
		[...listed.matchAll(/<ETag>([^<]+)<\/ETag>/g)].map((m) => m[1].replace(/&quot;/g, '"')),
	).toEqual(etags);
	expect((await send({ method: 'GET', key, query: { uploadId: 'no-such-upload' } })).status).toBe(
		404,
	);
	const xml = Buffer.from(
		`<CompleteMultipartUpload>${etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${e}</ETag></Part>`).join('')}</CompleteMultipartUpload>`,
	);
	const done = await send({ method: 'POST', key, query: { uploadId }, body: xml });
	expect(done.status).toBe(200);
	const get = await send({ method: 'GET', key });
	expect(get.body.length).toBe(10 * 1024 * 1024);
	expect(sha256(get.body)).toBe(sha256(Buffer.concat(parts)));
});

/** PUTs one part (with a Content-MD5, a wrong one when `badMd5`); resolves to its status and ETag. */
async function putPart(key: string, uploadId: string, n: number, body: Buffer, badMd5 = false) {
	const { url, headers } = signed({
		method: 'PUT',
		key,
		query: { partNumber: String(n), uploadId },
		body,
	});
	const md5 = crypto
		.createHash('md5')
		.update(badMd5 ? 'other' : body)
		.digest('base64');
	const res = await fetch(url, {
		method: 'PUT',
		headers: { ...headers, 'content-md5': md5 },
		body,
	});
	return { status: res.status, etag: res.headers.get('etag')! };
}

async function complete(key: string, uploadId: string, parts: Array<[number, string]>) {
	const xml = Buffer.from(
		`<CompleteMultipartUpload>${parts.map(([n, e]) => `<Part><PartNumber>${n}</PartNumber><ETag>${e}</ETag></Part>`).join('')}</CompleteMultipartUpload>`,
	);
	return send({ method: 'POST', key, query: { uploadId }, body: xml });
}

// The server writes a part in place in the object-to-be when its place is known (assembly.js) and
// then completes without copying; these orders and retries must still give the listed parts.
test('parts out of order, a good part retried with a bad Content-MD5, a part replaced, parts left out of Complete: the object is the listed parts', async () => {
	const MiB = 1024 * 1024;
	const [p1, p2, p3, p3b] = [5 * MiB, 5 * MiB + 17, 3 * MiB, 3 * MiB].map((n) =>
		crypto.randomBytes(n),
	);
	const create = async (key: string) =>
		/<UploadId>([^<]+)<\/UploadId>/.exec(
			(await send({ method: 'POST', key, query: { uploads: '' } })).body.toString(),
		)![1];
	const key = 'assembly/out-of-order.bin';
	const id = await create(key);
	const e2 = (await putPart(key, id, 2, p2)).etag; // before part 1: its place is not known yet
	const e1 = (await putPart(key, id, 1, p1)).etag;
	expect((await putPart(key, id, 1, p3, true)).status).toBe(400); // BadDigest: part 1 stays
	expect((await putPart(key, id, 2, p2)).etag).toBe(e2); // again, now in place
	await putPart(key, id, 3, p3);
	const e3 = (await putPart(key, id, 3, p3b)).etag; // replaced: copied into its place at Complete
	expect(
		(
			await complete(key, id, [
				[1, e1],
				[2, e2],
				[3, e3],
			])
		).status,
	).toBe(200);
	const got = (await send({ method: 'GET', key })).body;
	expect(sha256(got)).toBe(sha256(Buffer.concat([p1, p2, p3b])));

	const gapKey = 'assembly/with-a-gap.bin';
	const gap = await create(gapKey);
	const g1 = (await putPart(gapKey, gap, 1, p1)).etag;
	await putPart(gapKey, gap, 2, p2);
	const g3 = (await putPart(gapKey, gap, 3, p3)).etag;
	expect(
		(
			await complete(gapKey, gap, [
				[1, g1],
				[3, g3],
			])
		).status,
	).toBe(200);
	expect(sha256((await send({ method: 'GET', key: gapKey })).body)).toBe(
		sha256(Buffer.concat([p1, p3])),
	);
	// Nothing of either upload is left beside the objects (no assembly file in the bucket's folder).
	expect(
		fs.readdirSync(path.join(s3.directory, BUCKET)).filter((f) => f.startsWith('.incoming-')),
	).toEqual([]);
});
