// Storage's first answer, checked before a byte is stored: the sizes it states are within the
// ceiling, the bytes start at byte 0, the size matches what GridBank announced, it is a video rather than a page, and the binary store can
// hold a file of that size. A refused answer's body is let go.
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import type { ItemContext } from '../item-context';
import { storeRefusal } from './binary-store';
import { checkRange } from './content-range';
import { notAVideo } from './download-checks';
import type { Body } from '../transport/body-stream';
import { discard } from './let-go';
import { sizeBeyondCeiling } from './size-ceiling';
import { wrongBytesError, wrongFileError } from './storage-errors';
import { header } from '../transport/values';

export async function checkFirstResponse(
	item: ItemContext,
	first: IN8nHttpFullResponse,
	total: number | undefined,
	expectedSize: number | undefined,
	/** False for a copy (its own store): n8n's binary data mode has nothing to refuse then. */
	intoN8n = true,
): Promise<void> {
	// Before anything is parsed into a plan: the total (Content-Range or Content-Length) and the body's own length.
	const length = Number(header(first.headers, 'content-length') ?? NaN);
	const absurd = sizeBeyondCeiling(item, [total, length], 'storage');
	if (absurd) {
		discard(first.body as Body);
		throw absurd;
	}
	const placed = checkRange({
		status: first.statusCode,
		contentRange: header(first.headers, 'content-range'),
		from: 0,
		knownTotal: expectedSize,
	});
	// The size storage states (Content-Range total or Content-Length) against the API's file_size.
	const sized =
		placed.ok && total !== undefined && expectedSize !== undefined && total !== expectedSize
			? ({
					ok: false,
					kind: 'size',
					reason: `storage says the file has ${total} bytes, but GridBank announced ${expectedSize}`,
				} as const)
			: placed;
	const notVideo = sized.ok ? notAVideo(header(first.headers, 'content-type'), total) : undefined;
	const refusal =
		!sized.ok || notVideo
			? sized.ok
				? wrongFileError(item, `sent ${notVideo}`, first.statusCode)
				: wrongBytesError(item, sized)
			: total === expectedSize || !intoN8n
				? undefined
				: await storeRefusal(item, total);
	if (!refusal) return;
	discard(first.body as Body);
	throw refusal;
}
