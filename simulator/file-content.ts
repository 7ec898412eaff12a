/**
 * Deterministic master-file content, generated on the fly (no disk, flat memory).
 *
 * The file of video `id` is a sequence of 64 KiB blocks. Every block is the same
 * per-video 64 KiB pattern (derived from SHA-256 of the id), except that its first
 * 8 bytes are XORed with the block number, so a reordered, repeated or truncated
 * transfer changes the checksum. Tests compute the expected bytes / SHA-256 with
 * fileBytes / fileSha256 without asking the server.
 */
import { createHash } from 'node:crypto';

export const BLOCK_SIZE = 65536;

const patterns = new Map<string, Buffer>();

function pattern(id: string): Buffer {
	let p = patterns.get(id);
	if (p) return p;
	p = Buffer.allocUnsafe(BLOCK_SIZE);
	let seed = createHash('sha256').update(`gridbank-file:${id}`).digest();
	for (let off = 0; off < BLOCK_SIZE; off += 32) {
		seed.copy(p, off);
		seed = createHash('sha256').update(seed).digest();
	}
	if (patterns.size >= 512) patterns.delete(patterns.keys().next().value as string);
	patterns.set(id, p);
	return p;
}

/** Writes the header bytes of block `block` (first 8 bytes, pattern XOR block number) into `out` at `at`, for block bytes [from, 8). */
function writeBlockHeader(
	p: Buffer,
	block: number,
	from: number,
	out: Buffer,
	at: number,
	max: number,
): number {
	const header = Buffer.allocUnsafe(8);
	header.writeBigUInt64BE(BigInt(block));
	let n = 0;
	for (let j = from; j < 8 && n < max; j++, n++)
		out[at + n] = (p[j] as number) ^ (header[j] as number);
	return n;
}

/** Bytes [start, end) of the file of `idOrKey` (end exclusive, like Buffer#subarray). */
export function fileBytes(idOrKey: string, start: number, end: number): Buffer {
	if (!(start >= 0) || !(end >= start)) throw new RangeError(`bad range ${start}-${end}`);
	const p = pattern(idOrKey);
	const out = Buffer.allocUnsafe(end - start);
	let pos = start;
	let at = 0;
	while (pos < end) {
		const block = Math.floor(pos / BLOCK_SIZE);
		let inBlock = pos - block * BLOCK_SIZE;
		const blockEnd = Math.min(end, (block + 1) * BLOCK_SIZE);
		if (inBlock < 8) {
			const n = writeBlockHeader(p, block, inBlock, out, at, blockEnd - pos);
			at += n;
			pos += n;
			inBlock += n;
		}
		if (pos < blockEnd) {
			const n = blockEnd - pos;
			p.copy(out, at, inBlock, inBlock + n);
			at += n;
			pos += n;
		}
	}
	return out;
}

/** Hex SHA-256 of the first `size` bytes of the file of `idOrKey`. */
export function fileSha256(idOrKey: string, size: number): string {
	const hash = createHash('sha256');
	const step = 16 * BLOCK_SIZE;
	for (let pos = 0; pos < size; pos += step)
		hash.update(fileBytes(idOrKey, pos, Math.min(size, pos + step)));
	return hash.digest('hex');
}
