// Storage busy (429) or failing (5xx): waited for and retried like the API. The wait is the one
// storage asks for (Retry-After on 429 and 503, read by the API's reader) within the API's cap,
// else backoff; each wait counts as one of the request's retries, and against the transfer's
// total (transfer-waits.ts), shared by all its requests.
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import type { ItemRef } from '../validate';

import { MAX_WAIT_MS, retryWaitMs } from '../transport/retry-policy';
import { storageError } from './storage-errors';
import type { TransferWaits } from './transfer-waits';

/**
 * ms to wait before asking storage again, or undefined when this answer is not retried (any
 * other status, or no retry left). Throws when storage asks for longer than MAX_WAIT_MS, or
 * when the wait would take the transfer's total past its budget.
 */
export function storageRetryWait(
	item: ItemRef,
	response: IN8nHttpFullResponse,
	attempt: number,
	maxRetries: number,
	waits: TransferWaits,
): number | undefined {
	const status = response.statusCode;
	if ((status !== 429 && status < 500) || attempt >= maxRetries) return undefined;
	const headers = response.headers as Record<string, string | string[] | undefined>;
	const wait = retryWaitMs(status, headers, attempt);
	if (wait <= MAX_WAIT_MS) {
		waits.take(item, wait, status);
		return wait;
	}
	throw storageError(
		item,
		`GridBank's storage asked to wait ${Math.ceil(wait / 1000)} seconds before the next request (HTTP ${status})`,
		`The node waits at most ${MAX_WAIT_MS / 1000} seconds between retries, so it stopped here; nothing was passed on. Run the workflow again after that time.`,
		status,
	);
}

/** Storage still answered 429 after the item's last retry. */
export function storageBusyError(item: ItemRef, retries: number) {
	return storageError(
		item,
		"GridBank's storage is limiting requests (HTTP 429)",
		`It still refused after ${retries} ${retries === 1 ? 'retry' : 'retries'}, each after the wait it asked for. Try again in a few minutes, or raise Max Retries; other downloads on the same account may be using storage at the same time.`,
		429,
	);
}
