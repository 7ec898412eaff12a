// The content check storage offers in its first answer, verified over the bytes as they pass
// (transfer-meter.ts): one per file, the cheapest first. SHA-256 is computed for every download
// anyway, so `x-amz-checksum-sha256` costs nothing more; MD5 (`x-goog-hash`, or a single-part S3
// ETag) and CRC32C (`x-goog-hash` of a composite GCS object) cost CPU and are used only when
// nothing cheaper is offered.
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { header } from '../transport/values';

export type CheckAlgorithm = 'sha256' | 'md5' | 'crc32c';

export interface ContentCheck {
	/** Where storage stated it, as the item's `transfer.contentCheck` and messages name it. */
	source: 'x-amz-checksum-sha256' | 'x-goog-hash md5' | 'ETag md5' | 'x-goog-hash crc32c';
	algorithm: CheckAlgorithm;
	/** The digest storage states, as hex. */
	expected: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A base64 digest of exactly `bytes` bytes, as hex; undefined for anything else. */
function digestHex(value: string | undefined, bytes: number): string | undefined {
	const text = value?.trim();
	if (!text || !BASE64.test(text)) return undefined;
	const raw = Buffer.from(text, 'base64');
	return raw.length === bytes ? raw.toString('hex') : undefined;
}

/**
 * S3's `x-amz-checksum-sha256` when it is the whole object's: a composite checksum (of the
 * parts' checksums, `…-N`, or `x-amz-checksum-type: COMPOSITE`) is not a hash of the bytes.
 */
function amzSha256(headers: IN8nHttpFullResponse['headers']): string | undefined {
	const type = header(headers, 'x-amz-checksum-type');
	if (type !== undefined && type.trim().toUpperCase() !== 'FULL_OBJECT') return undefined;
	return digestHex(header(headers, 'x-amz-checksum-sha256'), 32);
}

/** `x-goog-hash: crc32c=…, md5=…` (one header or several, joined). */
function googHash(headers: IN8nHttpFullResponse['headers'], name: 'md5' | 'crc32c') {
	const value = headers['x-goog-hash'];
	const text = Array.isArray(value) ? value.join(',') : String(value ?? '');
	const found = new RegExp(`(?:^|[,\\s])${name}=([A-Za-z0-9+/=]+)`).exec(text);
	return digestHex(found?.[1], name === 'md5' ? 16 : 4);
}

/**
 * A single-part S3 upload's ETag is the MD5 of the object: 32 hex digits, quoted, no `-N`
 * (a multipart ETag is a hash of the parts' MD5s). S3 breaks the rule for objects encrypted with
 * SSE-KMS or SSE-C, and says so in the answer's headers, so those ETags are not checked.
 */
function etagMd5(headers: IN8nHttpFullResponse['headers']): string | undefined {
	const sse = header(headers, 'x-amz-server-side-encryption');
	if (sse !== undefined && sse !== 'AES256') return undefined;
	if (header(headers, 'x-amz-server-side-encryption-customer-algorithm') !== undefined)
		return undefined;
	const found = /^"([0-9a-fA-F]{32})"$/.exec(header(headers, 'etag')?.trim() ?? '');
	return found?.[1].toLowerCase();
}

/** The check to verify for the file of this first answer, or undefined when storage offers none. */
export function contentCheckOf(headers: IN8nHttpFullResponse['headers']): ContentCheck | undefined {
	const sha256 = amzSha256(headers);
	if (sha256) return { source: 'x-amz-checksum-sha256', algorithm: 'sha256', expected: sha256 };
	const md5 = googHash(headers, 'md5');
	if (md5) return { source: 'x-goog-hash md5', algorithm: 'md5', expected: md5 };
	const etag = etagMd5(headers);
	if (etag) return { source: 'ETag md5', algorithm: 'md5', expected: etag };
	const crc = googHash(headers, 'crc32c');
	if (crc) return { source: 'x-goog-hash crc32c', algorithm: 'crc32c', expected: crc };
	return undefined;
}
