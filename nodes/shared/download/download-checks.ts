// Checks a download makes before storing anything: a signed URL it may fetch, a response that
// is the video (not a sign-in page or an empty body), the bytes at the place asked for. Their
// errors name storage or the link GridBank issued: the credential's Base URL is not involved.
import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { acceptSignedUrl } from './signed-url';
import { TransferError } from '../transport/body-stream';
import { RangeIgnoredError } from './ordered-output';

export { RangeIgnoredError };

/** Storage sent something other than the bytes asked for: reported as such, not as a cut. */
export class WrongBytesError extends TransferError {
	constructor(
		readonly kind: 'misplaced' | 'size',
		message: string,
	) {
		super(message);
	}
}

/** The signed URL as a string the node may fetch, or a NodeApiError saying why not. */
export function usableSignedUrl(node: INode, value: unknown, itemIndex: number): string {
	const verdict = acceptSignedUrl(value);
	if (verdict.ok) return verdict.url;
	const message = `GridBank issued a download link that cannot be used: ${verdict.reason}`;
	throw new NodeApiError(
		node,
		{ message },
		{
			message,
			description:
				"Downloads are fetched only from https links (http only to this machine). Nothing was downloaded. This is a fault on GridBank's side, not a problem with the credential: try again later, and contact GridBank if it persists.",
			itemIndex,
			failure: { cause: 'temporarily-unavailable' },
		},
	);
}

/** Content types that are a web page, never a video. */
const PAGE_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

/** Why this 2xx response is not the video, or undefined when it may be. */
export function notAVideo(
	contentType: string | undefined,
	total: number | undefined,
): string | undefined {
	if (PAGE_TYPES.test((contentType ?? '').trim()))
		return 'a web page (text/html) instead of the video';
	if (total === 0) return 'an empty file';
	return undefined;
}
