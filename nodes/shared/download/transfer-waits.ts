// One transfer's total time waiting on storage's 429 / 503 (Retry-After, else backoff). Counted
// per request, waits multiplied with the file: one 128 MiB download waited 27-60 times, and a
// 4 GiB file over 8 connections at Retry-After: 120 could wait for hours (a trigger silent all
// that time). A transfer creates one TransferWaits and passes it to every request it makes: a
// download's first GET, resumes, restarts and parallel segments (a copy: its reads and uploads).
import type { ItemRef } from '../validate';

import { storageError } from './storage-errors';

/** What one transfer may wait on storage in total, all its requests together. */
export const TRANSFER_WAIT_BUDGET_MS = 300_000;

let currentBudgetMs = TRANSFER_WAIT_BUDGET_MS;
/** Tests: a shorter budget for transfers created from now on (restore with no argument). */
export function setTransferWaitBudget(ms = TRANSFER_WAIT_BUDGET_MS): void {
	currentBudgetMs = ms;
}

export class TransferWaits {
	/** ms waited so far, every request of the transfer counted. */
	waitedMs = 0;
	/** How many waits that was. */
	waits = 0;
	/** `budgetMs`: a smaller one for a side errand (a copy's abort of its upload). */
	constructor(readonly budgetMs = currentBudgetMs) {}

	/** Counts a wait of `ms` before it is slept, or throws when it would take the total past the budget. */
	take(item: ItemRef, ms: number, status: number, what = "GridBank's storage"): void {
		if (this.waitedMs + ms > this.budgetMs) throw waitedTooLongError(item, this, ms, status, what);
		this.waitedMs += ms;
		this.waits++;
	}
}

const seconds = (ms: number) => Math.ceil(ms / 1000);

function waitedTooLongError(
	item: ItemRef,
	waits: TransferWaits,
	asked: number,
	status: number,
	what: string,
) {
	return storageError(
		item,
		`${what} kept asking to wait (HTTP ${status})`,
		`This file's requests had already waited ${seconds(waits.waitedMs)} seconds in total (${waits.waits} ${waits.waits === 1 ? 'wait' : 'waits'}, all connections together) and storage asked for ${seconds(asked)} more; a file waits at most ${seconds(waits.budgetMs)} seconds in total. Nothing was passed on. Try again later, or with fewer Parallel Connections.`,
		status,
	);
}
