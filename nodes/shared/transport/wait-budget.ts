// The bound on time spent in the pacer: an item, a poll or a picker search waits at most
// PACED_WAIT_WINDOWS rate windows in total (5 minutes at the Partner API's one-minute window),
// however many requests it makes and whatever the server's X-RateLimit-* say. Past that, it
// fails with a message saying why, instead of sitting on an allowance others use up.
import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

export const PACED_WAIT_WINDOWS = 5;

/** Time one item, poll or picker search has spent in the pacer so far; shared by its requests. */
export interface WaitTally {
	pacedMs: number;
}

export const newWaitTally = (): WaitTally => ({ pacedMs: 0 });

/** Thrown by pace() when one more wait would take the tally past its bound. */
export class PacedTooLong extends Error {
	constructor(readonly boundMs: number) {
		super('waited too long for the rate limit');
	}
}

export function pacedTooLongError(
	node: INode,
	error: PacedTooLong,
	itemIndex: number,
): NodeApiError {
	const minutes = Math.round(error.boundMs / 60_000);
	const bound = minutes >= 1 ? `${minutes} minutes` : `${Math.round(error.boundMs / 1000)} seconds`;
	const message = `GridBank's rate limit kept this item waiting more than ${bound} in total`;
	return new NodeApiError(
		node,
		{ status: 429, message },
		{
			message,
			description: `The account's request allowance was used up for that long, by this workflow or by others on the same account (all its keys, workflows and n8n workers share it). Run the workflow again later, or read less: a Limit, or Purchased After on List Licensed Content.`,
			httpCode: '429',
			itemIndex,
			failure: { cause: 'rate-limited' },
		},
	);
}
