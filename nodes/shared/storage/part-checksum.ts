// Each part's checksum, the one the store checks it by (s3-ops.ts): SHA-256 where the store
// confirmed x-amz-checksum-algorithm at Create, else Content-MD5. Either grows with the part a
// network chunk at a time, so no 8 MiB hash holds the event loop (and with it every connection's
// reads) when the part is sent. SHA-256 costs this process about a third of MD5's CPU per byte
// (SHA extensions); over the bench's WAN link that took the 1 GiB copy from 89.5 to 93.6 MB/s
// (docs/storage-copy.md). Hashing full parts off the event loop (WebCrypto) was tried: its copy
// of each part cost 30 MiB of RSS and no throughput.
import { createHash } from 'node:crypto';

export type PartChecksumKind = 'sha256' | 'md5';

/** The header a part is sent with and its value (base64). */
export interface PartCheck {
	header: 'content-md5' | 'x-amz-checksum-sha256';
	value: string;
}

export interface PartChecksum {
	/** The part's next bytes, as they are copied into it. */
	update(bytes: Buffer): void;
	/** The full part's check; the next part starts afresh. */
	finish(): PartCheck;
}

export function partChecksum(kind: PartChecksumKind): PartChecksum {
	const name = kind === 'sha256' ? 'x-amz-checksum-sha256' : 'content-md5';
	let hash = createHash(kind);
	return {
		update: (bytes) => void hash.update(bytes),
		finish: () => {
			const value = hash.digest('base64');
			hash = createHash(kind);
			return { header: name, value };
		},
	};
}
