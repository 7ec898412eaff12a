/**
 * Fault switches of field hardening III (time): X-RateLimit-* headers as a server with a skewed
 * clock or a hostile proxy would send them, and a Partner list that never ends (fresh cursors,
 * new videos on every page). Counted like the other faults; FaultState.clear() clears these too.
 */
import { encodeCursor, decodeCursor } from './cursor';
import type { RateHeadersOverride } from './types';

const matches = (path: string | RegExp | undefined, rawPath: string) =>
	path === undefined || (typeof path === 'string' ? rawPath.includes(path) : path.test(rawPath));

interface Counted<T> {
	left: number;
	o: T;
}

export class TimeFaults {
	rateHeaders: Array<Counted<RateHeadersOverride>> = [];
	/** The endlessPartnerList switch. */
	endlessList = false;

	clear(): void {
		this.rateHeaders = [];
		this.endlessList = false;
	}

	/** The X-RateLimit-* headers the next matching response carries instead, if armed. */
	takeRateHeaders(rawPath: string, now: number): Record<string, string> | undefined {
		const entry = this.rateHeaders.find((e) => e.left > 0 && matches(e.o.path, rawPath));
		if (!entry) return undefined;
		if (--entry.left <= 0) this.rateHeaders.splice(this.rateHeaders.indexOf(entry), 1);
		const o = entry.o;
		const reset = o.reset ?? String(Math.ceil(now / 1000) + (o.resetInSeconds ?? 60));
		return {
			'X-RateLimit-Limit': String(o.limit ?? 300),
			'X-RateLimit-Remaining': String(o.remaining ?? 0),
			'X-RateLimit-Reset': reset,
		};
	}
}

/**
 * A page of the endless Partner list: `perPage` videos never listed before, all purchased now
 * (so a trigger sees them all as new), and a fresh cursor to the next page. Null: a bad cursor.
 */
export function endlessPage(
	secret: string,
	accountId: string,
	cursor: string | undefined,
	perPage: number,
	now: number,
): Record<string, unknown> | null {
	const pos = cursor === undefined ? { n: 1, a: accountId } : decodeCursor(secret, cursor);
	if (!pos || pos.a !== accountId) return null;
	const purchasedAt = Math.floor(now / 1000);
	const videos = Array.from({ length: perPage }, (_, i) => ({
		video_key: `endless-${pos.n}-${i}`,
		title: `Endless ${pos.n}.${i}`,
		duration_seconds: 10,
		purchased_at: purchasedAt,
		preview_url: null,
		thumbnail_url: null,
		creator: { id: 'endless', username: 'endless', name: null },
	}));
	const last = `endless-${pos.n}-${perPage - 1}`;
	const next = { a: accountId, p: purchasedAt, k: last, n: pos.n + 1 };
	return { videos, next_cursor: encodeCursor(secret, next) };
}
