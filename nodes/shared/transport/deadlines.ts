import type { INode, NodeApiError } from 'n8n-workflow';

import { type Body, TransferError } from './body-stream';
import { apiErrorKeepingMessage } from './kept-message';
import { sleep } from './wait';

// No request is held open for ever. n8n's `timeout` option is an idle-socket timeout: a server
// that sends a byte every few seconds never trips it. So an API request has an overall
// deadline per attempt, and a storage body must keep a minimum average rate once it has had
// time to get going.

export const LIMITS = {
	/** Wall-clock time one API attempt may take, headers and body. */
	apiDeadlineMs: 30_000,
	/** A storage body must average at least this over every window... */
	storageMinBytesPerSecond: 16 * 1024,
	/** ...of this length, the first one starting with the response. */
	storageRateWindowMs: 30_000,
};

/** The API attempt's signal: aborts on the deadline or on the execution's cancel; `expired` tells which. */
export interface ApiDeadline {
	signal: AbortSignal;
	/** The deadline passed (and the user did not cancel). */
	expired(): boolean;
	seconds: number;
	/** The attempt is over: the execution's long-lived signal keeps no listener of it. */
	done(): void;
}

export function apiDeadline(
	cancel: AbortSignal | undefined,
	ms = LIMITS.apiDeadlineMs,
): ApiDeadline {
	const timeout = AbortSignal.timeout(ms);
	// Combined by hand (AbortSignal.any needs Node 20.3; n8n 1.x also runs on older Node).
	const combined = new AbortController();
	const abort = () => combined.abort();
	timeout.addEventListener('abort', abort, { once: true });
	if (cancel?.aborted) combined.abort();
	else cancel?.addEventListener('abort', abort, { once: true });
	return {
		signal: combined.signal,
		expired: () => timeout.aborted && !cancel?.aborted,
		seconds: Math.round(ms / 1000),
		done: () => cancel?.removeEventListener('abort', abort),
	};
}

/**
 * The context as n8n's httpRequestWithAuthentication sees it, with `signal` as the execution's
 * cancel signal: that helper replaces a request's abortSignal with the execution's own, which
 * would drop the deadline. Everything else is the context itself (its prototype).
 */
export function withSignal<T extends object>(ctx: T, signal: AbortSignal): T {
	if (!('getExecutionCancelSignal' in ctx)) return ctx;
	return Object.create(ctx, { getExecutionCancelSignal: { value: () => signal } }) as T;
}

/**
 * Average rate over a sliding window: too slow when, after a whole window, the bytes of the
 * last window are fewer than the minimum. Time while the reader holds the body (n8n's binary
 * store writing slowly) does not count against storage: the window starts again after it.
 */
export class RateWatch {
	private samples: Array<{ at: number; bytes: number }>;
	private bytes = 0;
	private held = false;

	constructor(
		now: number,
		private readonly minBytesPerSecond = LIMITS.storageMinBytesPerSecond,
		private readonly windowMs = LIMITS.storageRateWindowMs,
	) {
		this.samples = [{ at: now, bytes: 0 }];
	}

	add(bytes: number): void {
		this.bytes += bytes;
	}

	hold(): void {
		this.held = true;
	}

	release(now: number): void {
		if (!this.held) return;
		this.held = false;
		this.samples = [{ at: now, bytes: this.bytes }];
	}

	/** Why the body is too slow at `now`, or undefined. Call it regularly (it keeps samples). */
	check(now: number): string | undefined {
		if (this.held) return undefined;
		this.samples.push({ at: now, bytes: this.bytes });
		if (now - this.samples[0].at < this.windowMs) return undefined;
		while (this.samples.length > 1 && now - this.samples[1].at >= this.windowMs)
			this.samples.shift();
		const from = this.samples[0];
		const rate = ((this.bytes - from.bytes) * 1000) / (now - from.at);
		if (rate >= this.minBytesPerSecond) return undefined;
		return `storage sent ${kib(rate)}/s on average over ${Math.round((now - from.at) / 1000)} s, below the minimum of ${kib(this.minBytesPerSecond)}/s`;
	}
}

const kib = (bytesPerSecond: number) =>
	`${(bytesPerSecond / 1024).toFixed(bytesPerSecond < 10 * 1024 ? 1 : 0)} KiB`;

/** A storage body too slow to finish: ends it like a break, so the transfer resumes or fails. */
export class SlowTransferError extends TransferError {}

export interface BodyWatch {
	data(bytes: number): void;
	hold(): void;
	release(): void;
	stop(): void;
}

/**
 * Watches one storage body's rate on a timer, so that a body that sends nothing at all is cut
 * on time too. When it is too slow, `cut` ends it as broken at once: destroying the body alone
 * is not enough, as n8n's stream may only report it once the socket's 60 s idle timeout passed.
 */
export function watchBodyRate(
	body: Body,
	cut: (error: Error) => void = (error) => body.destroy(error),
	onSlow?: (reason: string) => void,
): BodyWatch {
	const watch = new RateWatch(Date.now());
	const stopped = new AbortController();
	const tick = Math.max(50, Math.round(LIMITS.storageRateWindowMs / 30));
	void (async () => {
		try {
			for (;;) {
				await sleep(tick, stopped.signal);
				if (stopped.signal.aborted) return;
				const slow = watch.check(Date.now());
				if (slow) {
					onSlow?.(slow);
					cut(new SlowTransferError(slow));
					return;
				}
			}
		} catch {
			// Stopped: the body ended.
		}
	})();
	return {
		data: (bytes) => watch.add(bytes),
		hold: () => watch.hold(),
		release: () => watch.release(Date.now()),
		stop: () => stopped.abort(),
	};
}

/** GridBank's API took longer than the deadline on every attempt. */
export function deadlineError(
	node: INode,
	seconds: number,
	retries: number,
	itemIndex: number,
): NodeApiError {
	const message = `GridBank did not answer within ${seconds} seconds`;
	return apiErrorKeepingMessage(
		node,
		{ message },
		{
			message,
			description: `The request was tried ${retries + 1} ${retries === 0 ? 'time' : 'times'}; each time the answer came too slowly (or stalled) and was abandoned after ${seconds} seconds. Try again in a few minutes; if it persists, check the network path to the credential's Base URL (a proxy holding responses).`,
			itemIndex,
			failure: { cause: 'temporarily-unavailable' },
		},
	);
}
