// CRC32C (Castagnoli), which Google Cloud Storage states in `x-goog-hash` (composite objects
// carry no MD5): Node's zlib.crc32 is the other polynomial. Slicing-by-8 tables, so a chunk costs
// one table step per 8 bytes; computed only when storage offers nothing cheaper to check.

const POLY = 0x82f63b78;
const TABLES: Uint32Array[] = (() => {
	const tables = Array.from({ length: 8 }, () => new Uint32Array(256));
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
		tables[0][n] = c >>> 0;
	}
	for (let n = 0; n < 256; n++)
		for (let t = 1; t < 8; t++)
			tables[t][n] = (tables[t - 1][n] >>> 8) ^ tables[0][tables[t - 1][n] & 0xff];
	return tables;
})();

/** A running CRC32C: update with each chunk in order, then digest (4 bytes, big-endian). */
export class Crc32c {
	private crc = 0xffffffff;

	update(data: Uint8Array): this {
		const [t0, t1, t2, t3, t4, t5, t6, t7] = TABLES;
		let crc = this.crc;
		let i = 0;
		const fast = data.length - (data.length % 8);
		for (; i < fast; i += 8) {
			const lo =
				(crc ^ (data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24))) >>> 0;
			crc =
				t7[lo & 0xff] ^
				t6[(lo >>> 8) & 0xff] ^
				t5[(lo >>> 16) & 0xff] ^
				t4[lo >>> 24] ^
				t3[data[i + 4]] ^
				t2[data[i + 5]] ^
				t1[data[i + 6]] ^
				t0[data[i + 7]];
		}
		for (; i < data.length; i++) crc = t0[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
		this.crc = crc >>> 0;
		return this;
	}

	digest(): Buffer {
		const out = Buffer.alloc(4);
		out.writeUInt32BE((this.crc ^ 0xffffffff) >>> 0);
		return out;
	}
}
