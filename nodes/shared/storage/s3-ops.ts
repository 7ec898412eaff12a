// The S3 calls a copy makes: HeadObject, PutObject, and the multipart upload (create, part,
// complete, abort). Every body carries Content-MD5, which every S3-compatible store checks
// (400 BadDigest); the payload is sent UNSIGNED-PAYLOAD, as S3 allows, so a part is hashed once.
import { createHash } from 'node:crypto';
import { TransferWaits } from '../download/transfer-waits';

import { s3Url } from '../transport/s3-address';
import { UNSIGNED_PAYLOAD } from '../transport/sigv4';
import { header } from '../transport/values';
import { type CopyRun, type S3Answer, s3Send } from './s3-call';
import { s3Error } from './s3-errors';

/** An ETag or version id is a short token: anything else from a server is not passed on. */
const TOKEN = /^"?[\w.+/=:-]{1,200}"?$/;
const token = (value: string | undefined) => (value && TOKEN.test(value) ? value : undefined);

const url = (run: CopyRun, query?: Record<string, string>) =>
	s3Url(run.target, run.target.bucket, run.target.key, query);

function failed(run: CopyRun, op: string, answer: S3Answer) {
	const { target } = run;
	return s3Error(run.item, {
		op,
		status: answer.status,
		text: answer.text,
		bucket: target.bucket,
		key: target.key,
		scrub: target.scrub,
	});
}

/** `md5`: the body's Content-MD5 when the caller hashed it already (a part, as it was filled). */
const bodyHeaders = (body: Buffer, contentType = 'application/octet-stream', md5?: string) => ({
	'content-type': contentType,
	'content-md5': md5 ?? createHash('md5').update(body).digest('base64'),
	'x-amz-content-sha256': UNSIGNED_PAYLOAD,
});

export interface Landed {
	etag?: string;
	versionId?: string;
}

/** The object at the key: its size, or undefined when there is none. */
export async function headObject(
	run: CopyRun,
): Promise<{ size: number; etag?: string } | undefined> {
	const answer = await s3Send(run, { op: 'HeadObject', method: 'HEAD', url: url(run) });
	if (answer.status === 404) return undefined;
	if (answer.status !== 200) throw failed(run, 'HeadObject', answer);
	const size = Number(header(answer.headers, 'content-length'));
	return {
		size: Number.isSafeInteger(size) && size >= 0 ? size : -1,
		etag: token(header(answer.headers, 'etag')),
	};
}

const landed = (answer: S3Answer, etag?: string): Landed => ({
	etag: etag ?? token(header(answer.headers, 'etag')),
	versionId: token(header(answer.headers, 'x-amz-version-id')),
});

export async function putObject(run: CopyRun, body: Buffer, contentType: string): Promise<Landed> {
	const answer = await s3Send(run, {
		op: 'PutObject',
		method: 'PUT',
		url: url(run),
		headers: bodyHeaders(body, contentType),
		body,
	});
	if (answer.status !== 200) throw failed(run, 'PutObject', answer);
	return landed(answer);
}

export async function createUpload(run: CopyRun, contentType: string): Promise<string> {
	const op = 'CreateMultipartUpload';
	const answer = await s3Send(run, {
		op,
		method: 'POST',
		url: url(run, { uploads: '' }),
		headers: { 'content-type': contentType },
	});
	const uploadId = /<UploadId>([^<]{1,1024})<\/UploadId>/.exec(answer.text)?.[1];
	if (answer.status !== 200 || !uploadId) throw failed(run, op, answer);
	return uploadId;
}

export async function uploadPart(
	run: CopyRun,
	uploadId: string,
	partNumber: number,
	body: Buffer,
	/** The part's Content-MD5 (base64), hashed as the part was filled. */
	md5: string,
): Promise<string> {
	const op = `UploadPart ${partNumber}`;
	const query = { partNumber: String(partNumber), uploadId };
	const answer = await s3Send(run, {
		op,
		method: 'PUT',
		url: url(run, query),
		headers: bodyHeaders(body, undefined, md5),
		body,
	});
	const etag = token(header(answer.headers, 'etag'));
	if (answer.status !== 200 || !etag) throw failed(run, op, answer);
	return etag;
}

const escapeXml = (text: string) =>
	text.replace(
		/[<>&'"]/g,
		(c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', "'": 'apos', '"': 'quot' }[c]};`,
	);

export async function completeUpload(
	run: CopyRun,
	uploadId: string,
	etags: string[],
): Promise<Landed> {
	const op = 'CompleteMultipartUpload';
	const parts = etags.map(
		(etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`,
	);
	const body = `<CompleteMultipartUpload>${parts.join('')}</CompleteMultipartUpload>`;
	const answer = await s3Send(run, {
		op,
		method: 'POST',
		url: url(run, { uploadId }),
		headers: { 'content-type': 'application/xml' },
		body,
	});
	// S3 may answer 200 and still fail: the error is then in the body.
	if (answer.status !== 200 || /<Error>/.test(answer.text)) throw failed(run, op, answer);
	const etag = /<ETag>([^<]{1,300})<\/ETag>/.exec(answer.text)?.[1]?.replace(/&quot;/g, '"');
	return landed(answer, token(etag));
}

/** Best effort, never through the cancelled signal: a fresh 30 s deadline of its own. */
export async function abortUpload(run: CopyRun, uploadId: string): Promise<void> {
	const signal = AbortSignal.timeout(30_000);
	try {
		await s3Send(
			{ ...run, waits: new TransferWaits(10_000) },
			{ op: 'AbortMultipartUpload', method: 'DELETE', url: url(run, { uploadId }) },
			signal,
		);
	} catch {
		// The store's lifecycle rule is the last resort; docs/storage-copy.md says to set one.
	}
}
