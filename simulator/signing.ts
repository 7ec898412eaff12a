/**
 * S3-style presigned URLs for master files: X-Amz-Date + X-Amz-Expires give the expiry,
 * X-Amz-Signature is an HMAC over the method, the object key and every other query
 * parameter, so changing any of them (or the path) invalidates the URL.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const STORAGE_PREFIX = '/masters/';

/** RFC 3986 encoding (what S3 expects): also encodes ! ' ( ) *. */
export function rfc3986(s: string): string {
	return encodeURIComponent(s).replace(
		/[!'()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
	);
}

function amzDate(seconds: number): string {
	return new Date(seconds * 1000)
		.toISOString()
		.replace(/[-:]/g, '')
		.replace(/\.\d{3}/, '');
}

function parseAmzDate(s: string): number | undefined {
	const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s);
	if (!m) return undefined;
	const [, y, mo, d, h, mi, se] = m.map(Number) as [
		number,
		number,
		number,
		number,
		number,
		number,
		number,
	];
	return Date.UTC(y, mo - 1, d, h, mi, se) / 1000;
}

function canonical(params: Array<[string, string]>): string {
	return params
		.filter(([k]) => k !== 'X-Amz-Signature')
		.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
		.sort()
		.join('&');
}

function sign(secret: string, key: string, params: Array<[string, string]>): string {
	return createHmac('sha256', secret)
		.update(`GET\n${key}\n${canonical(params)}`)
		.digest('hex');
}

export function objectPath(key: string): string {
	return STORAGE_PREFIX + key.split('/').map(rfc3986).join('/');
}

export function signUrl(
	secret: string,
	origin: string,
	o: { key: string; issuedAt: number; expiresIn: number; disposition?: string; token: string },
): { url: string; signature: string } {
	const date = amzDate(o.issuedAt);
	const params: Array<[string, string]> = [
		['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
		['X-Amz-Credential', `GBSIMAKIAEXAMPLE/${date.slice(0, 8)}/us-east-1/s3/aws4_request`],
		['X-Amz-Date', date],
		['X-Amz-Expires', String(o.expiresIn)],
		// Temporary-credential session token: makes every issued URL distinct, even within one second.
		['X-Amz-Security-Token', o.token],
		['X-Amz-SignedHeaders', 'host'],
	];
	if (o.disposition !== undefined) params.push(['response-content-disposition', o.disposition]);
	const signature = sign(secret, o.key, params);
	params.push(['X-Amz-Signature', signature]);
	const query = params.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join('&');
	return { url: `${origin}${objectPath(o.key)}?${query}`, signature };
}

export type Verified =
	| { ok: true; key: string; expiresAt: number; signature: string; disposition?: string }
	| { ok: false; reason: 'missing' | 'signature' };

export function verifyUrl(
	secret: string,
	method: string,
	rawPath: string,
	rawQuery: string,
): Verified {
	if (!rawPath.startsWith(STORAGE_PREFIX)) return { ok: false, reason: 'missing' };
	let key: string;
	try {
		key = rawPath.slice(STORAGE_PREFIX.length).split('/').map(decodeURIComponent).join('/');
	} catch {
		return { ok: false, reason: 'signature' };
	}
	const params = [...new URLSearchParams(rawQuery)];
	const get = (name: string) => params.find(([k]) => k === name)?.[1];
	const signature = get('X-Amz-Signature');
	const date = get('X-Amz-Date');
	const expires = get('X-Amz-Expires');
	if (!signature || !date || !expires) return { ok: false, reason: 'missing' };
	const expected = Buffer.from(sign(secret, key, params));
	const given = Buffer.from(signature);
	// The signature is for GET; S3 refuses the same URL for other methods.
	if (method !== 'GET' || given.length !== expected.length || !timingSafeEqual(given, expected)) {
		return { ok: false, reason: 'signature' };
	}
	const issued = parseAmzDate(date);
	if (issued === undefined || !/^\d+$/.test(expires)) return { ok: false, reason: 'signature' };
	return {
		ok: true,
		key,
		expiresAt: issued + Number(expires),
		signature,
		disposition: get('response-content-disposition'),
	};
}
