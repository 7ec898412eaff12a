/**
 * The content checks object storage states in its answers (sendChecksum): S3's
 * `x-amz-checksum-sha256` (whole object, or composite `…-N`), Google Cloud Storage's
 * `x-goog-hash` (md5 and crc32c, or crc32c alone as for a composite object), and a single-part
 * S3 upload's ETag, the object's MD5. `wrong`: the digest of other bytes, to prove a mismatch.
 * Digests are computed over the generated file once per file and version.
 */
import { createHash } from 'node:crypto';

import { fileBytes } from './file-content';

export type ChecksumKind =
	| 'amz-sha256'
	| 'amz-sha256-composite'
	| 'goog-md5'
	| 'goog-crc32c'
	| 'etag-md5';

/** CRC32C (Castagnoli), bit by bit from its definition: independent of the node's tables. */
function crc32c(crc: number, data: Buffer): number {
	let c = ~crc >>> 0;
	for (const byte of data) {
		c ^= byte;
		for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
	}
	return ~c >>> 0;
}

const cache = new Map<string, { sha256: Buffer; md5: Buffer; crc32c: Buffer }>();

function digests(id: string, size: number) {
	const key = `${id}:${size}`;
	const known = cache.get(key);
	if (known) return known;
	const sha = createHash('sha256');
	const md5 = createHash('md5');
	let crc = 0;
	for (let pos = 0; pos < size; pos += 1024 * 1024) {
		const chunk = fileBytes(id, pos, Math.min(size, pos + 1024 * 1024));
		sha.update(chunk);
		md5.update(chunk);
		crc = crc32c(crc, chunk);
	}
	const crcBytes = Buffer.alloc(4);
	crcBytes.writeUInt32BE(crc);
	const found = { sha256: sha.digest(), md5: md5.digest(), crc32c: crcBytes };
	if (cache.size >= 64) cache.delete(cache.keys().next().value as string);
	cache.set(key, found);
	return found;
}

/** The headers to add for the file `id` (its version's id) of `size` bytes. */
export function checksumHeaders(
	check: { kind: ChecksumKind; wrong: boolean },
	id: string,
	size: number,
): Record<string, string> {
	const d = digests(check.wrong ? `${id}#wrong` : id, size);
	switch (check.kind) {
		case 'amz-sha256':
			return {
				'x-amz-checksum-sha256': d.sha256.toString('base64'),
				'x-amz-checksum-type': 'FULL_OBJECT',
			};
		case 'amz-sha256-composite':
			return {
				'x-amz-checksum-sha256': `${d.sha256.toString('base64')}-3`,
				'x-amz-checksum-type': 'COMPOSITE',
			};
		case 'goog-md5':
			return {
				'x-goog-hash': `crc32c=${d.crc32c.toString('base64')},md5=${d.md5.toString('base64')}`,
			};
		case 'goog-crc32c':
			return { 'x-goog-hash': `crc32c=${d.crc32c.toString('base64')}` };
		case 'etag-md5':
			return { ETag: `"${d.md5.toString('hex')}"` };
	}
}
