// GridBank asked (Retry-After on a 429 or 503) for a longer wait than the node sleeps through:
// the item fails and says so, with the wait, instead of advising more retries that would not help.
import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { MAX_WAIT_MS } from './retry-policy';

export function askedToWaitError(
	node: INode,
	status: number,
	waitMs: number,
	itemIndex: number,
): NodeApiError {
	const seconds = Math.ceil(waitMs / 1000);
	const message = `GridBank asked to wait ${seconds} seconds before the next request (HTTP ${status})`;
	return new NodeApiError(
		node,
		{ status, message },
		{
			message,
			description: `The node waits at most ${MAX_WAIT_MS / 1000} seconds between retries, so it stopped here. Run the workflow again after that time${status === 429 ? '; GridBank limits requests per account, so other workflows on the same account count too' : ''}.`,
			httpCode: String(status),
			itemIndex,
			failure: {
				cause: status === 429 ? 'rate-limited' : 'temporarily-unavailable',
				...(status === 429 ? { retryAfterMs: waitMs } : {}),
			},
		},
	);
}
