// AWS Signature Version 4 for S3-compatible stores, written here because a community node may have
// no runtime dependency (docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html):
// canonical request -> string to sign -> HMAC chain signing key. The storage credential's
// `authenticate` applies it, so every storage request goes through httpRequestWithAuthentication.
import { createHash, createHmac } from 'node:crypto';

export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

export const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) =>
	createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding of a key segment or a query key/value, as SigV4 requires. */
export const uriEncode = (text: string) =>
	encodeURIComponent(text).replace(
		/[!'()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
	);

export interface SignInput {
	method: string;
	url: URL;
	/** Lower-case names. */
	headers: Record<string, string>;
	payloadHash: string;
	accessKeyId: string;
	secretAccessKey: string;
	region: string;
	now?: Date;
}

/** Headers S3 signs: host, every x-amz-* and Content-MD5 (all a store checks against the signature). */
const signs = (name: string) => name.startsWith('x-amz-') || name === 'content-md5';

/** The query as SigV4 sorts it; the URL's path is sent encoded already (S3 does not double-encode). */
function canonicalQuery(url: URL): string {
	return [...url.searchParams]
		.map(([k, v]) => [uriEncode(k), uriEncode(v)])
		.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0))
		.map(([k, v]) => `${k}=${v}`)
		.join('&');
}

/** The headers to add to the request: x-amz-date, x-amz-content-sha256 and Authorization. */
export function signRequest(input: SignInput): Record<string, string> {
	const amzDate = (input.now ?? new Date()).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
	const scope = `${amzDate.slice(0, 8)}/${input.region}/s3/aws4_request`;
	const headers: Record<string, string> = {
		...input.headers,
		host: input.url.host,
		'x-amz-date': amzDate,
		'x-amz-content-sha256': input.payloadHash,
	};
	const names = Object.keys(headers)
		.filter((name) => name === 'host' || signs(name))
		.sort();
	const canonicalRequest = [
		input.method.toUpperCase(),
		input.url.pathname || '/',
		canonicalQuery(input.url),
		names.map((name) => `${name}:${headers[name].trim().replace(/\s+/g, ' ')}\n`).join(''),
		names.join(';'),
		input.payloadHash,
	].join('\n');
	const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
	let key = hmac(`AWS4${input.secretAccessKey}`, amzDate.slice(0, 8));
	for (const part of [input.region, 's3', 'aws4_request']) key = hmac(key, part);
	const signature = hmac(key, stringToSign).toString('hex');
	return {
		'x-amz-date': amzDate,
		'x-amz-content-sha256': input.payloadHash,
		authorization: `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
	};
}
