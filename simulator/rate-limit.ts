/**
 * Rate limiters. Partner: N requests per account over a sliding window. Enterprise: a token
 * bucket per account (tier rate per second, tier burst), reported in X-RateLimit-* headers.
 * Both read the injectable clock.
 */
import type { Tier, TierRate } from './types';

/** docs/gridbank-api.md#enterprise-rate-limits: documented tier rates (requests per second / burst). */
export const TIER_RATES: Readonly<Record<Tier, TierRate>> = {
	starter: { perSecond: 50, burst: 500 },
	growth: { perSecond: 100, burst: 1000 },
	scale: { perSecond: 300, burst: 3000 },
	enterprise: { perSecond: 500, burst: 5000 },
};

export type SlidingResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/** What X-RateLimit-* headers report for a sliding window (see headers()). */
export interface WindowState {
	limit: number;
	remaining: number;
	/** ms when the oldest counted request leaves the window (the allowance next grows); now when none is counted. */
	resetAt: number;
}

export class SlidingWindowLimiter {
	private readonly hits = new Map<string, number[]>();

	constructor(
		private readonly limit: number,
		private readonly windowMs: number,
	) {}

	take(id: string, now: number): SlidingResult {
		if (this.limit <= 0) return { ok: true };
		let list = this.hits.get(id);
		if (!list) this.hits.set(id, (list = []));
		while (list.length > 0 && (list[0] as number) <= now - this.windowMs) list.shift();
		if (list.length >= this.limit) {
			const waitMs = (list[0] as number) + this.windowMs - now;
			return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
		}
		list.push(now);
		return { ok: true };
	}

	/** The account's allowance after the last take(); limit 0 (unlimited) gives undefined. */
	state(id: string, now: number): WindowState | undefined {
		if (this.limit <= 0) return undefined;
		const list = (this.hits.get(id) ?? []).filter((at) => at > now - this.windowMs);
		const oldest = list[0];
		return {
			limit: this.limit,
			remaining: Math.max(0, this.limit - list.length),
			resetAt: oldest === undefined ? now : oldest + this.windowMs,
		};
	}

	clear(): void {
		this.hits.clear();
	}
}

/** X-RateLimit-* for a sliding window: Reset is Unix seconds, rounded up (never early). */
export function windowHeaders(state: WindowState): Record<string, string> {
	return {
		'X-RateLimit-Limit': String(state.limit),
		'X-RateLimit-Remaining': String(state.remaining),
		'X-RateLimit-Reset': String(Math.ceil(state.resetAt / 1000)),
	};
}

export interface BucketResult {
	ok: boolean;
	headers: Record<string, string>;
	retryAfterSeconds: number;
}

export class TokenBucketLimiter {
	private readonly buckets = new Map<string, { tokens: number; at: number }>();

	take(id: string, rate: TierRate, now: number): BucketResult {
		let b = this.buckets.get(id);
		if (!b) this.buckets.set(id, (b = { tokens: rate.burst, at: now }));
		b.tokens = Math.min(rate.burst, b.tokens + ((now - b.at) / 1000) * rate.perSecond);
		b.at = now;
		const ok = b.tokens >= 1;
		if (ok) b.tokens -= 1;
		const fullInMs = ((rate.burst - b.tokens) / rate.perSecond) * 1000;
		const headers = {
			'X-RateLimit-Limit': String(rate.burst),
			'X-RateLimit-Remaining': String(Math.floor(b.tokens)),
			'X-RateLimit-Reset': String(Math.ceil((now + fullInMs) / 1000)),
		};
		const retryAfterSeconds = ok ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / rate.perSecond));
		return { ok, headers, retryAfterSeconds };
	}

	clear(): void {
		this.buckets.clear();
	}
}
