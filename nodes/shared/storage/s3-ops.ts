// The S3 calls a copy makes: HeadObject, PutObject, and the multipart upload (create, part,
// complete, abort). Every body carries a checksum the store checks (400 BadDigest): a part the
// SHA-256 of S3's checksum headers when the store confirmed them at Create, else Content-MD5,
// which every S3-compatible store checks; the payload is sent UNSIGNED-PAYLOAD, as S3 allows, so
// a part is hashed once.
import { createHash } from 'node:crypto';
import { TransferWaits } from '../download/transfer-waits';

import { s3Url } from '../transport/s3-address';
import { UNSIGNED_PAYLOAD } from '../transport/sigv4';
import { header } from '../transport/values';
import { type CopyRun, type S3Answer, s3Send } from './s3-call';
import type { PartCheck, PartChecksumKind } from './part-checksum';
import { s3Error, xmlCode } from './s3-errors';

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

/** `check`: the part's checksum header, hashed by the caller (part-checksum.ts); else Content-MD5. */
const bodyHeaders = (
	body: Buffer,
	contentType = 'application/octet-stream',
	check?: PartCheck,
) => ({
	'content-type': contentType,
	[check?.header ?? 'content-md5']: check?.value ?? createHash('md5').update(body).digest('base64'),
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

/** What a store answers when it does not take a checksum algorithm it was asked for. */
const REFUSED_ALGORITHM = new Set(['InvalidArgument', 'InvalidRequest', 'NotImplemented']);

export interface CreatedUpload {
	uploadId: string;
	/** How the store checks each part: the SHA-256 header only when it confirmed the algorithm. */
	partChecksum: PartChecksumKind;
}

/**
 * Asks for SHA-256 part checksums (`x-amz-checksum-algorithm`). A store that takes them says so
 * in the same header of its answer (AWS S3, MinIO); one that ignores the header does not, and
 * one that refuses it (400/501) is asked again without it: both get Content-MD5 parts.
 */
export async function createUpload(run: CopyRun, contentType: string): Promise<CreatedUpload> {
	const op = 'CreateMultipartUpload';
	const create = async (algorithm: boolean) =>
		await s3Send(run, {
			op,
			method: 'POST',
			url: url(run, { uploads: '' }),
			headers: {
				'content-type': contentType,
				...(algorithm ? { 'x-amz-checksum-algorithm': 'SHA256' } : {}),
			},
		});
	let answer = await create(true);
	const refused = answer.status === 400 || answer.status === 501;
	if (refused && REFUSED_ALGORITHM.has(xmlCode(answer.text) ?? '')) answer = await create(false);
	const uploadId = /<UploadId>([^<]{1,1024})<\/UploadId>/.exec(answer.text)?.[1];
	if (answer.status !== 200 || !uploadId) throw failed(run, op, answer);
	const confirmed = header(answer.headers, 'x-amz-checksum-algorithm')?.toUpperCase() === 'SHA256';
	return { uploadId, partChecksum: confirmed ? 'sha256' : 'md5' };
}

export async function uploadPart(
	run: CopyRun,
	uploadId: string,
	partNumber: number,
	body: Buffer,
	/** The part's checksum header (part-checksum.ts). */
	check: PartCheck,
): Promise<string> {
	const op = `UploadPart ${partNumber}`;
	const query = { partNumber: String(partNumber), uploadId };
	const answer = await s3Send(run, {
		op,
		method: 'PUT',
		url: url(run, query),
		headers: bodyHeaders(body, undefined, check),
		body,
	});
	const etag = token(header(answer.headers, 'etag'));
	if (answer.status !== 200 || !etag) throw failed(run, op, answer);
	// A store that echoes the checksum states what it received: another one is another body.
	const echoed = check.header === 'content-md5' ? undefined : header(answer.headers, check.header);
	if (echoed !== undefined && echoed !== check.value)
		throw failed(run, op, { ...answer, status: 400, text: BAD_ECHO });
	return etag;
}

const BAD_ECHO =
	'<Error><Code>BadDigest</Code><Message>The storage states another SHA-256 for the part than the one sent</Message></Error>';

const escapeXml = (text: string) =>
	text.replace(
		/[<>&'"]/g,
		(c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', "'": 'apos', '"': 'quot' }[c]};`,
	);

export async function completeUpload(
	run: CopyRun,
	uploadId: string,
	/** Each part's ETag and, where the store checks SHA-256 parts, its checksum (S3 asks for both). */
	parts: Array<{ etag: string; sha256?: string }>,
): Promise<Landed> {
	const op = 'CompleteMultipartUpload';
	const listed = parts.map(
		({ etag, sha256 }, i) =>
			`<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag>${sha256 ? `<ChecksumSHA256>${escapeXml(sha256)}</ChecksumSHA256>` : ''}</Part>`,
	);
	const body = `<CompleteMultipartUpload>${listed.join('')}</CompleteMultipartUpload>`;
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
