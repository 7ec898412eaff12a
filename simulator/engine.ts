/** The per-instance state every route handler works on. */
import type { IncomingHttpHeaders } from 'node:http';
import { FaultState } from './faults';
import { SlidingWindowLimiter, TIER_RATES, TokenBucketLimiter } from './rate-limit';
import type { EndCursorStyle, SimulatorOptions, Tier, TierRate } from './types';
import { World } from './world';

export interface RequestContext {
	method: string;
	/** Path as received, percent-encoding preserved. */
	rawPath: string;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	/** now() at arrival, ms. */
	now: number;
}

export interface ResolvedOptions {
	partnerRatePerMinute: number;
	rateWindowMs: number;
	partnerRateLimitHeaders: boolean;
	enterpriseRateLimit: boolean;
	enterpriseRates: Record<Tier, TierRate>;
	partnerLicences: number;
	enterpriseVideos: number;
	partnerEndCursor: EndCursorStyle;
}

export function resolveOptions(o: SimulatorOptions): ResolvedOptions {
	return {
		partnerRatePerMinute: o.partnerRatePerMinute ?? 300,
		rateWindowMs: o.rateWindowMs ?? 60_000,
		partnerRateLimitHeaders: o.partnerRateLimitHeaders ?? true,
		enterpriseRateLimit: o.enterpriseRateLimit ?? true,
		enterpriseRates: { ...TIER_RATES, ...o.enterpriseRates },
		partnerLicences: o.partnerLicences ?? 1250,
		enterpriseVideos: o.enterpriseVideos ?? 10_000,
		partnerEndCursor: o.partnerEndCursor ?? 'absent',
	};
}

export class Engine {
	world: World;
	readonly faults: FaultState;
	readonly partnerLimiter: SlidingWindowLimiter;
	readonly enterpriseLimiter = new TokenBucketLimiter();
	/** Key for cursor MACs and URL signatures; fixed so runs are reproducible. */
	readonly secret = 'gridbank-simulator-signing-secret';
	storageUrl = '';
	searchCounter = 0;
	urlCounter = 0;

	constructor(
		readonly options: ResolvedOptions,
		readonly now: () => number,
	) {
		this.world = new World(options, now);
		this.faults = new FaultState(options.partnerEndCursor);
		this.partnerLimiter = new SlidingWindowLimiter(
			options.partnerRatePerMinute,
			options.rateWindowMs,
		);
	}

	reset(): void {
		this.world = new World(this.options, this.now);
		this.faults.clear();
		this.partnerLimiter.clear();
		this.enterpriseLimiter.clear();
		this.searchCounter = 0;
		this.urlCounter = 0;
	}
}

/** The bearer token, or undefined when the header is missing or not "Bearer <token>". */
export function bearer(headers: IncomingHttpHeaders): string | undefined {
	const h = headers.authorization;
	if (!h) return undefined;
	const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
	return m ? m[1] : undefined;
}
