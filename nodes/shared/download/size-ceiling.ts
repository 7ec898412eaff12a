// The largest file a download accepts. A size storage or GridBank states beyond it is refused
// before anything is planned, allocated or stored: a corrupt Content-Range total once made the
// segment plan allocate by it and ran the whole n8n process out of memory.
import type { ItemRef } from '../validate';
import { storageError } from './storage-errors';

/** 1 TiB: far above any video master, far below where byte arithmetic stops being exact. */
export const MAX_FILE_BYTES = 2 ** 40;

/**
 * The error for the first stated size beyond the ceiling (undefined and non-numbers are
 * skipped), or undefined. `api`: GridBank's API announced it (Enterprise file_size).
 */
export function sizeBeyondCeiling(
	item: ItemRef,
	stated: Array<number | undefined>,
	source: 'storage' | 'api',
) {
	const size = stated.find((n) => n !== undefined && n > MAX_FILE_BYTES);
	if (size === undefined) return undefined;
	const who = source === 'api' ? 'GridBank' : "GridBank's storage";
	return storageError(
		item,
		source === 'api'
			? 'GridBank announced an impossible file size'
			: "GridBank's storage stated an impossible file size",
		`${who} said the file has ${size} bytes, more than the 1 TiB (${MAX_FILE_BYTES} bytes) this node accepts for a video, so nothing was downloaded. This is a fault of ${source === 'api' ? "GridBank's API" : "GridBank's file storage (or of a proxy between n8n and it)"}, not of the credential: try again later; if it persists, contact GridBank.`,
	);
}
