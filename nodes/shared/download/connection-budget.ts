// How many of its connections a segmented download keeps busy. More connections help only while
// n8n's store waits for bytes: where one connection already brings them faster than the store
// takes them (loopback, storage on the same network, a busy machine), each one more adds CPU and
// memory and no speed (on a 2-core machine's loopback, one stream ran at 226 MB/s, eight
// connections at 165). So a download starts as one stream (lean-start.ts) and opens every
// connection it may once the store is seen waiting on it most of the time: half the period so
// far or more (GROW_FROM), once the period has run GROW_AFTER_MS, over GROW_MIN_WAITS separate
// waits or more, the longest of them left out (a pause of the sending process, one wait of tens
// of milliseconds, is no reason); or for STALL_MS at once (one wait, or no bytes since the
// stream was resumed). Measured (docs/downloads.md): one
// connection of the benchmark's WAN link keeps the store waiting 95-99 % of every period, so the
// rest open after about 30 ms; a loopback download, quiet or beside busy processes, waits 3-16 %
// of a period and rarely more than a third of a shorter stretch: it stays one stream. One way: a
// download never goes back to one stream. The decisions are given the time, so they are
// unit-tested alone; segmented-body.ts acts.
import { sleep } from '../transport/wait';

/** How often a stream that brings nothing (stalled) is looked at. */
export const REVIEW_MS = 50;
/** Waits count within periods this long: waits far apart do not add up to a reason. */
export const BUDGET_PERIOD_MS = 250;
/** The store waited at least this share of the period so far (the stream brings at most half what it takes), ... */
export const GROW_FROM = 0.5;
/** ... judged once the period has run this long (a burst of waits at its start is no reason), ... */
export const GROW_AFTER_MS = 30;
/** ... over at least this many separate waits (the longest left out of the share). */
export const GROW_MIN_WAITS = 4;
/** Or one wait this long: the stream stalled. */
export const STALL_MS = 250;

export type BudgetStart = 'all' | 'one' | undefined;
let forced: BudgetStart;
/**
 * Tests: how downloads started from now on use their connections: 'all' from the start (the
 * parallel path's own tests, over loopback where one stream is enough), 'one' and never more
 * (the stream running on, whatever the machine's load), or as above (no argument).
 */
export function setBudgetStart(start?: BudgetStart): void {
	forced = start;
}

export class ConnectionBudget {
	/** Connections the download may keep busy now: 1, then `max`. */
	allowed: number;
	private readonly fixed = forced !== undefined;
	private periodStart: number;
	/** Waits within the period: their count, and their time up to `countedTo`. */
	private waits = 0;
	private waitedMs = 0;
	/** The longest finished wait of the period (counted within it). */
	private longestMs = 0;
	private countedTo: number | undefined;
	/** When the current wait began (never moved by a new period: a stall spans them). */
	private waitingSince: number | undefined;
	/** When the stream was resumed for a store that still held bytes, until the next bytes came. */
	private resumedAt: number | undefined;

	/** `max`: the Parallel Connections setting (as planned); `now`: when n8n's store began to read. */
	constructor(
		private readonly max: number,
		now: number,
	) {
		this.allowed = forced === 'all' ? max : 1;
		this.periodStart = now;
	}

	/** The store can take bytes and none are there. */
	waiting(now: number): void {
		if (this.waitingSince !== undefined) return;
		this.waitingSince = this.countedTo = now;
		this.waits++;
	}

	/**
	 * The stream, paused while the store was full, was resumed as the store read (lean-start.ts):
	 * no wait yet, as the store still holds bytes, but no bytes for STALL_MS from now is a stall.
	 */
	resumed(now: number): void {
		this.resumedAt ??= now;
	}

	/** Bytes went to the store; true when every connection may now be used. */
	fed(now: number): boolean {
		this.resumedAt = undefined;
		if (this.waitingSince === undefined) return false;
		const grow = this.review(now);
		this.longestMs = Math.max(this.longestMs, this.currentMs(now));
		this.waitingSince = this.countedTo = undefined;
		return grow;
	}

	/** The current wait's time within the period. */
	private currentMs(now: number): number {
		return this.waitingSince === undefined
			? 0
			: now - Math.max(this.waitingSince, this.periodStart);
	}

	/** Whether the store waited enough to open every connection (true once, when it did). */
	review(now: number): boolean {
		if (this.fixed || this.allowed === this.max) return false;
		if (this.countedTo !== undefined) {
			this.waitedMs += now - this.countedTo;
			this.countedTo = now;
		}
		const length = now - this.periodStart;
		const longest = Math.max(this.longestMs, this.currentMs(now));
		const often =
			this.waits >= GROW_MIN_WAITS &&
			length >= GROW_AFTER_MS &&
			this.waitedMs - longest >= GROW_FROM * (length - longest);
		const since = Math.min(this.waitingSince ?? now, this.resumedAt ?? now);
		const stalled = now - since >= STALL_MS;
		if (often || stalled) {
			this.allowed = this.max;
			return true;
		}
		if (length >= BUDGET_PERIOD_MS) {
			this.periodStart = now;
			this.waitedMs = 0;
			this.longestMs = 0;
			this.waits = 0;
		}
		return false;
	}

	/**
	 * Reviews every REVIEW_MS (a stall brings no bytes to review on) until every connection may
	 * be used, then calls `open`; stops when `signal` aborts or the download is `over`.
	 */
	async watch(signal: AbortSignal, over: () => boolean, open: () => void): Promise<void> {
		while (this.allowed < this.max) {
			const slept = await sleep(REVIEW_MS, signal).then(
				() => true,
				() => false,
			);
			if (!slept || over()) return;
			if (this.review(Date.now())) return open();
		}
	}
}
