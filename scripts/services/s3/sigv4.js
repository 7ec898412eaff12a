'use strict';
// AWS Signature Version 4 as S3 computes it (docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html):
// canonical request -> string to sign -> HMAC chain signing key -> hex signature. Pure functions,
// shared by the server's verifier (verify-sigv4.js) and nothing else; the tests sign with their own.
const crypto = require('node:crypto');

const ALGORITHM = 'AWS4-HMAC-SHA256';

const sha256Hex = (data) => crypto.createHash('sha256').update(data).digest('hex');
const hmac = (key, data) => crypto.createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding of one path segment or query key/value, as SigV4 requires. */
function uriEncode(text) {
	return encodeURIComponent(text).replace(
		/[!'()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
	);
}

function safeDecode(text) {
	try {
		return decodeURIComponent(text);
	} catch {
		return text; // a stray '%': signed as sent, so a mismatch shows as one, not a crash
	}
}

/** S3's canonical URI: each segment of the path as sent, encoded once (S3 does not double-encode). */
function canonicalUri(rawPath) {
	return (
		rawPath
			.split('/')
			.map((s) => uriEncode(safeDecode(s)))
			.join('/') || '/'
	);
}

/** Every query parameter but `skip`, encoded, sorted by key then value; `a` becomes `a=`. */
function canonicalQuery(rawQuery, skip = 'X-Amz-Signature') {
	if (!rawQuery) return '';
	return rawQuery
		.split('&')
		.filter(Boolean)
		.map((pair) => {
			const at = pair.indexOf('=');
			const [k, v] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
			return [safeDecode(k.replace(/\+/g, ' ')), safeDecode(v.replace(/\+/g, ' '))];
		})
		.filter(([k]) => k !== skip)
		.map(([k, v]) => [uriEncode(k), uriEncode(v)])
		.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0))
		.map(([k, v]) => `${k}=${v}`)
		.join('&');
}

/** `name:value\n` for each signed header, values trimmed with inner runs of spaces collapsed. */
function canonicalHeaders(headers, signedHeaders) {
	return signedHeaders
		.map((name) => {
			const value = headers[name];
			const text = Array.isArray(value) ? value.join(',') : (value ?? '');
			return `${name}:${String(text).trim().replace(/\s+/g, ' ')}\n`;
		})
		.join('');
}

/**
 * The signature of one request.
 * @param {{method: string, rawPath: string, rawQuery: string, headers: Record<string, string|string[]|undefined>,
 *   signedHeaders: string[], payloadHash: string, amzDate: string, scope: string, secretAccessKey: string}} r
 */
function signature(r) {
	const canonicalRequest = [
		r.method,
		canonicalUri(r.rawPath),
		canonicalQuery(r.rawQuery),
		canonicalHeaders(r.headers, r.signedHeaders),
		r.signedHeaders.join(';'),
		r.payloadHash,
	].join('\n');
	const stringToSign = [ALGORITHM, r.amzDate, r.scope, sha256Hex(canonicalRequest)].join('\n');
	const [date, region, service, terminator] = r.scope.split('/');
	let key = hmac(`AWS4${r.secretAccessKey}`, date);
	for (const part of [region, service, terminator]) key = hmac(key, part);
	return { signature: hmac(key, stringToSign).toString('hex'), stringToSign, canonicalRequest };
}

/** Constant-time comparison of two hex signatures. */
function sameSignature(a, b) {
	const x = Buffer.from(String(a), 'utf8');
	const y = Buffer.from(String(b), 'utf8');
	return x.length === y.length && crypto.timingSafeEqual(x, y);
}

module.exports = { ALGORITHM, signature, sameSignature, sha256Hex, canonicalUri, canonicalQuery };
