// What the server says is left of a key's allowance (X-RateLimit-Limit / -Remaining / -Reset).
// The server counts every process on the account, so this is what lets several n8n processes
// (a main and its queue-mode workers) share one account's limit without sharing memory.

import { resetWaitMs, RESET_MARGIN_MS } from './rate-reset';
import { retryAfterMs } from './retry-policy';
import { header } from './values';

type Headers = Record<string, string | string[] | undefined>;

export interface Allowance {
	limit: number;
	remaining: number;
	/** ms since the epoch when the allowance next grows. */
	resetAt: number;
}

const wholeNumber = (text: string | undefined): number | undefined => {
	if (text === undefined || !/^\s*\d+\s*$/.test(text)) return undefined;
	return Number(text);
};

/**
 * The allowance in a response's headers, or undefined unless all three are present and Limit and
 * Remaining are sane. The Reset is read by resetWaitMs: never further than one window ahead.
 */
export function readAllowance(
	headers: Headers | undefined,
	now = Date.now(),
	windowMs = 60_000,
): Allowance | undefined {
	if (!headers) return undefined;
	const limit = wholeNumber(header(headers, 'x-ratelimit-limit'));
	const remaining = wholeNumber(header(headers, 'x-ratelimit-remaining'));
	const wait = resetWaitMs(header(headers, 'x-ratelimit-reset'), windowMs, now);
	if (!limit || remaining === undefined || wait === undefined) return undefined;
	return { limit, remaining: Math.min(remaining, limit), resetAt: now + wait };
}

/**
 * Requests held back from what the server reports left, for the other processes that may be
 * sending at the same moment on a view at most one response old: 3 % of the limit, at least 3.
 */
export const reserveFor = (limit: number) => Math.max(3, Math.ceil(limit * 0.03));

const PROBE_SPREAD_MS = 400;

/** One process's view of one key's allowance, kept current from each response. */
export class ServerAllowance {
	private view?: Allowance & { sentSince: number; seenAt: number; spread: number };
	private probing = false;
	/** Requests of this process on this key sent and not yet answered. */
	inFlight = 0;

	/** `windowMs`: the API's rate window, the furthest ahead any wait read from the server may lie. */
	constructor(private readonly windowMs = 60_000) {}

	/** When the server's last word arrived; undefined without one. */
	get seenAt(): number | undefined {
		return this.view?.seenAt;
	}

	/**
	 * ms to wait before the next request may go, or 0 to send now (and it is counted), or
	 * undefined when there is no usable server view and the caller paces on its own.
	 * `staleAfterMs`: a view whose reset lies this far in the past is forgotten.
	 * `ownSlotFreeAt`: when a request of this process that the server's last word still counted
	 * has surely left the window; the allowance has grown by then even if the server's Reset
	 * (whole seconds, rounded up) says a little later.
	 */
	take(now: number, staleAfterMs: number, ownSlotFreeAt = Infinity): number | undefined {
		const view = this.view;
		if (!view) return undefined;
		if (now > view.resetAt + staleAfterMs) {
			this.view = undefined;
			return undefined;
		}
		if (view.remaining - view.sentSince > reserveFor(view.limit)) {
			view.sentSince++;
			this.inFlight++;
			return 0;
		}
		// The allowance has grown since the server's last word: one request asks it how much. A
		// process with requests of its own in the window waits for one of them to leave (that slot
		// is news to no other process) while the server still showed room; otherwise it waits for
		// the server's Reset, spread by up to PROBE_SPREAD_MS so processes waiting for the same
		// freed slot do not all ask at once. (Measured across a main and two workers: probing at
		// the Reset too earned 429s, as processes claimed the same freed slots.)
		const left = view.remaining - view.sentSince;
		const grownAt =
			left > 0 && ownSlotFreeAt !== Infinity ? ownSlotFreeAt : view.resetAt + view.spread;
		if (now >= grownAt && !this.probing) {
			this.probing = true;
			view.sentSince++;
			this.inFlight++;
			return 0;
		}
		return this.probing ? 50 : grownAt - now;
	}

	/** A request that went out without the server view (the caller's own pacing let it). */
	sentUnpaced(): void {
		this.inFlight++;
	}

	/**
	 * A request's response (its headers) or failure (undefined) is in. Returns whether the server's
	 * count surely holds it: it answered with its allowance and did not refuse (a refusal carries
	 * Retry-After). Only such a request frees a slot of the account when it leaves the window; one
	 * that failed, was refused, or went where no allowance is reported (the same key on another
	 * endpoint) was never in that count, and reusing its "slot" would take one from other processes.
	 */
	answered(headers: Headers | undefined, now = Date.now()): boolean {
		this.inFlight = Math.max(0, this.inFlight - 1);
		const allowance = readAllowance(headers, now, this.windowMs);
		if (!allowance) {
			if (this.probing && this.view) this.view.resetAt = Math.max(this.view.resetAt, now + 1000);
			this.probing = false;
			return false;
		}
		// A refusal's Retry-After is the server's own instruction: the allowance grows then, whatever
		// its Reset says, and nothing is left until it does (bounded like any server number).
		const refusedFor = retryAfterMs(header(headers, 'retry-after'), now);
		if (refusedFor !== undefined) {
			allowance.remaining = 0;
			allowance.resetAt = now + Math.min(refusedFor, this.windowMs + RESET_MARGIN_MS);
		}
		// Requests still in flight may not have reached the server yet: count them as not counted.
		this.view = {
			...allowance,
			sentSince: this.inFlight,
			seenAt: now,
			spread: Math.floor(Math.random() * PROBE_SPREAD_MS),
		};
		this.probing = false;
		return refusedFor === undefined && header(headers, 'retry-after') === undefined;
	}
}
