// X-RateLimit-Reset, read one way everywhere: by the pacer (when a full allowance grows again)
// and by the retry policy (the wait of a 429 without Retry-After). No number from a server is
// trusted further than the API's rate window (docs/gridbank-api.md#how-we-read-x-ratelimit-reset).

/** Slack on top of a window: the Reset is whole seconds, rounded up. */
export const RESET_MARGIN_MS = 1000;
/** A value below this (2001-09-09 as a Unix time) cannot be a time of today: seconds from now. */
const UNIX_SECONDS_FROM = 1e9;
/** A Reset this far in the past is our clock ahead of the server's by a little, or the answer's age. */
const PAST_TOLERANCE_MS = 5000;

/**
 * ms until the allowance grows, from an X-RateLimit-Reset value: Unix seconds, or seconds from
 * now when below 1e9. Undefined when absent or not whole seconds ("1e12", "1.5", "soon"): no
 * Reset. Never more than one window plus RESET_MARGIN_MS: a Reset more than two windows ahead or
 * more than a few seconds in the past says nothing we can use, so one window (after which any
 * window-counted allowance has grown) is assumed; a request then goes out and its answer decides.
 */
export function resetWaitMs(
	value: string | undefined,
	windowMs: number,
	now = Date.now(),
): number | undefined {
	const text = value?.trim();
	if (!text || !/^\d{1,15}$/.test(text)) return undefined;
	const bound = windowMs + RESET_MARGIN_MS;
	const seconds = Number(text);
	const ahead = seconds < UNIX_SECONDS_FROM ? seconds * 1000 : seconds * 1000 - now;
	if (ahead > 2 * windowMs || ahead < -PAST_TOLERANCE_MS) return bound;
	return Math.min(Math.max(0, ahead), bound);
}
