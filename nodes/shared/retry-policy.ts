// When to retry a GridBank call and how long to wait. All GridBank operations are GETs,
// so a retry can never repeat a side effect.
export const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/** Connection-level failures worth another try (the peer reset or dropped the socket). */
const RETRYABLE_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/** Longer waits than this are not slept through: the item fails and says when to retry. */
export const MAX_WAIT_MS = 120_000;

const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

export function networkErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const { code, httpCode, message } = current as { code?: unknown; httpCode?: unknown; message?: unknown };
		if (typeof code === 'string' && RETRYABLE_CODES.has(code)) return code;
		// n8n 1.x wraps a network failure in a NodeApiError whose only trace of it is httpCode.
		if (typeof httpCode === 'string' && RETRYABLE_CODES.has(httpCode)) return httpCode;
		if (typeof message === 'string' && /socket hang up|aborted/i.test(message)) return 'ECONNRESET';
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** Exponential backoff with "equal jitter": between half and all of 500 ms × 2^attempt. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
	const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** attempt);
	return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string | undefined => {
	const value = headers[name] ?? headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
};

/**
 * The wait a 429 asks for: Retry-After in seconds or as an HTTP date, else the Enterprise
 * X-RateLimit-Reset (Unix seconds); undefined when the response names none.
 */
export function requestedWaitMs(headers: Headers, now = Date.now()): number | undefined {
	const retryAfter = header(headers, 'retry-after')?.trim();
	if (retryAfter) {
		if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.ceil(Number(retryAfter) * 1000);
		const date = Date.parse(retryAfter);
		if (!Number.isNaN(date)) return Math.max(0, date - now);
	}
	const reset = header(headers, 'x-ratelimit-reset')?.trim();
	if (reset && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - now);
	return undefined;
}
