// When to retry a GridBank call and how long to wait. All GridBank operations are GETs,
// so a retry can never repeat a side effect.
import { resetWaitMs } from './rate-reset';
import { header } from './values';

export const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/**
 * Connection-level failures worth another try: the peer reset or dropped the socket, timed out,
 * refused the connection (a server restarting), or DNS did not answer for now (EAI_AGAIN).
 */
const RETRYABLE_CODES = new Set([
	'ECONNRESET',
	'EPIPE',
	'ETIMEDOUT',
	'ECONNABORTED',
	'UND_ERR_SOCKET',
	'ECONNREFUSED',
	'EAI_AGAIN',
]);

/** Network failures no retry mends: the host name does not exist. */
const FINAL_CODES = new Set(['ENOTFOUND']);

/** Longer waits than this are not slept through: the item fails and says when to retry. */
export const MAX_WAIT_MS = 120_000;

const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

function findCode(error: unknown, codes: Set<string>): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const { code, httpCode, message } = current as {
			code?: unknown;
			httpCode?: unknown;
			message?: unknown;
		};
		if (typeof code === 'string' && codes.has(code)) return code;
		// n8n 1.x wraps a network failure in a NodeApiError whose only trace of it is httpCode.
		if (typeof httpCode === 'string' && codes.has(httpCode)) return httpCode;
		if (
			codes.has('ECONNRESET') &&
			typeof message === 'string' &&
			/socket hang up|aborted/i.test(message)
		)
			return 'ECONNRESET';
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** The network code of a failure worth retrying, if it is one. */
export const networkErrorCode = (error: unknown) => findCode(error, RETRYABLE_CODES);

/** The network code of a failure no retry mends (ENOTFOUND), if it is one. */
export const finalNetworkErrorCode = (error: unknown) => findCode(error, FINAL_CODES);

/** Exponential backoff with "equal jitter": between half and all of 500 ms × 2^attempt. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
	const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** attempt);
	return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

type Headers = Record<string, string | string[] | undefined>;

/** Two headers of one name are a list: not a wait anyone can trust. */
const ONCE = { single: true };

/** HTTP dates (RFC 9110): IMF-fixdate, and the obsolete RFC 850 and asctime forms. */
const HTTP_DATE = [
	/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
	/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
	/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/**
 * Retry-After read strictly: whole seconds ("0", "120") or a future HTTP date. Anything else
 * (negative, fractions, lists, garbage, a date already past) is undefined, so the caller
 * backs off instead of retrying at once.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
	const text = value?.trim();
	if (!text) return undefined;
	if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
	if (!HTTP_DATE.some((form) => form.test(text))) return undefined;
	const date = Date.parse(text.includes(',') ? text : `${text} GMT`);
	return Number.isNaN(date) || date <= now ? undefined : date - now;
}

/**
 * The wait a 429 or 503 asks for (other statuses ask none): Retry-After; else, on a 429, the X-RateLimit-Reset as
 * resetWaitMs reads it (never more than one rate window, `windowMs`); undefined when the
 * response names none that can be trusted.
 */
export function requestedWaitMs(
	headers: Headers,
	now = Date.now(),
	windowMs = 60_000,
	status = 429,
): number | undefined {
	if (status !== 429 && status !== 503) return undefined;
	const retryAfter = retryAfterMs(header(headers, 'retry-after', ONCE), now);
	if (retryAfter !== undefined || status !== 429) return retryAfter;
	return resetWaitMs(header(headers, 'x-ratelimit-reset', ONCE), windowMs, now);
}

/**
 * The wait before retrying an answer of this status, for the API and storage alike: what it asks
 * for (requestedWaitMs), else backoff. Callers refuse a wait above MAX_WAIT_MS with their own error.
 */
export function retryWaitMs(
	status: number,
	headers: Headers,
	attempt: number,
	windowMs?: number,
): number {
	return requestedWaitMs(headers, Date.now(), windowMs, status) ?? backoffMs(attempt);
}
