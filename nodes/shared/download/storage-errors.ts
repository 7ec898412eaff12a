// The errors of a download that storage answered wrongly: all NodeApiErrors a user can act on,
// none blaming the credential.
import { NodeApiError } from 'n8n-workflow';

import { TransferError } from '../transport/body-stream';
import { networkErrorCode } from '../transport/retry-policy';
import type { ItemRef } from '../validate';

export function storageError(item: ItemRef, message: string, description: string, status?: number) {
	return new NodeApiError(
		item.node,
		{ message, ...(status ? { status } : {}) },
		{
			message,
			description,
			httpCode: status ? String(status) : undefined,
			itemIndex: item.itemIndex,
			failure: { cause: 'temporarily-unavailable' },
		},
	);
}

/** Storage answered, but not with the video: nothing is passed on. */
export function wrongFileError(item: ItemRef, what: string, status?: number, detail = '') {
	return storageError(
		item,
		`GridBank's storage ${what}`,
		`${detail}Nothing was passed on. This is a fault of GridBank's file storage (or of a proxy between n8n and it), not of the credential: try again later.`,
		status,
	);
}

export function wrongBytesError(item: ItemRef, verdict: { kind: string; reason: string }) {
	const detail = `${verdict.reason[0].toUpperCase()}${verdict.reason.slice(1)}. `;
	return verdict.kind === 'size'
		? wrongFileError(
				item,
				'holds a file of another size than GridBank announced',
				undefined,
				detail,
			)
		: wrongFileError(item, 'sent the wrong part of the file', undefined, detail);
}

/** The stored byte count against what was announced: undefined when it is the whole file. */
export function storedSizeError(
	item: ItemRef,
	stored: number,
	expected: number | undefined,
	status: number,
) {
	if (stored === 0) return wrongFileError(item, 'sent an empty file', status);
	if (expected !== undefined && stored > expected)
		return storageError(
			item,
			`The file is larger than announced: ${stored} bytes arrived, ${expected} expected`,
			"GridBank's storage sent more bytes than the file's announced size, so the file was not passed on. Try again; if it persists, contact GridBank.",
		);
	if (expected !== undefined && stored !== expected)
		return storageError(
			item,
			`The download is incomplete: ${stored} of ${expected} bytes arrived`,
			"The transfer from GridBank's storage ended early, so the file was not passed on. Try again.",
		);
	return undefined;
}

/** The transfer broke for good (every resume or restart used up); `slow`: why a body was cut. */
export function brokenTransferError(item: ItemRef, error: unknown, slow: string | undefined) {
	let detail =
		error instanceof TransferError
			? error.message
			: (networkErrorCode(error) ?? `stream error ${String(error)}`);
	// A segment cut for being too slow says so too (the single stream's message already does).
	if (slow && !detail.includes(slow)) detail = `${slow}; ${detail}`;
	return storageError(
		item,
		'The download was cut off before the whole file arrived',
		`The transfer from GridBank's storage broke (${detail}) and could not be completed; no partial file was passed on. Try again.`,
	);
}
