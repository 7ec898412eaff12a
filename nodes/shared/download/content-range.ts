// What a storage response must say about its bytes before any of them is stored: a 206 names
// exactly the range asked for (from the byte asked, within the file's known size), a 200 is the
// whole file from byte 0. Anything else would store bytes at the wrong place.

export interface RangeCheck {
	/** The response's status (200 or 206). */
	status: number;
	/** Its Content-Range header, if any. */
	contentRange: string | undefined;
	/** The byte asked for (Range: bytes=from-). */
	from: number;
	/** The file's size when already known (the API's file_size, or an earlier response's total). */
	knownTotal: number | undefined;
}

export type RangeVerdict =
	| { ok: true; start: number; total: number | undefined }
	/**
	 * ignored: storage sent the whole file to a resume (start again from byte 0); misplaced:
	 * other bytes than asked for; size: a total other than the size already known.
	 */
	| { ok: false; kind: 'ignored' | 'misplaced' | 'size'; reason: string };

/** `bytes first-last/total` (total may be `*`): the numbers, or undefined when malformed. */
export function parseContentRange(
	value: string | undefined,
): { first: number; last: number; total: number | undefined } | undefined {
	const match = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(value ?? '');
	if (!match) return undefined;
	const first = Number(match[1]);
	const last = Number(match[2]);
	const total = match[3] === '*' ? undefined : Number(match[3]);
	if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || last < first) return undefined;
	if (total !== undefined && (!Number.isSafeInteger(total) || last >= total)) return undefined;
	return { first, last, total };
}

export function checkRange({ status, contentRange, from, knownTotal }: RangeCheck): RangeVerdict {
	if (status !== 206) {
		if (from > 0)
			return {
				ok: false,
				kind: 'ignored',
				reason: `storage answered HTTP ${status} with the whole file instead of the part from byte ${from}`,
			};
		return { ok: true, start: 0, total: undefined };
	}
	const range = parseContentRange(contentRange);
	if (!range)
		return {
			ok: false,
			kind: 'misplaced',
			reason: `storage sent part of the file with an unreadable Content-Range (${JSON.stringify(contentRange ?? null)})`,
		};
	if (range.first !== from)
		return {
			ok: false,
			kind: 'misplaced',
			reason: `storage sent the part from byte ${range.first} when byte ${from} was asked for`,
		};
	if (range.total !== undefined && range.last !== range.total - 1)
		return {
			ok: false,
			kind: 'misplaced',
			reason: `storage sent bytes ${range.first}-${range.last} of ${range.total}, not the rest of the file`,
		};
	if (knownTotal !== undefined && range.total !== undefined && range.total !== knownTotal)
		return {
			ok: false,
			kind: 'size',
			reason: `storage says the file has ${range.total} bytes, but ${knownTotal} were announced`,
		};
	return { ok: true, start: range.first, total: range.total };
}
