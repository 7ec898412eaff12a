// Which signed URLs the node fetches: https anywhere, http only to this machine (a local
// GridBank stand-in or proxy). A data:, file:, relative or missing URL is never fetched.

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** The URL when it is one to fetch, else why not (for the error message). */
export function acceptSignedUrl(
	value: unknown,
): { ok: true; url: string } | { ok: false; reason: string } {
	if (typeof value !== 'string')
		return {
			ok: false,
			reason: `the link is ${value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value}, not text`,
		};
	const text = value.trim();
	if (!text) return { ok: false, reason: 'the link is empty' };
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return { ok: false, reason: 'the link is not an absolute URL' };
	}
	if (url.protocol === 'https:') return { ok: true, url: text };
	if (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) return { ok: true, url: text };
	if (url.protocol === 'http:') return { ok: false, reason: 'the link is not https' };
	return { ok: false, reason: `the link is a "${url.protocol}" URL, not https` };
}

export interface SignedUrl {
	url: string;
	/** Epoch ms, by this machine's clock, after which storage refuses the URL (urlExpiry). */
	expiresAtMs: number;
}

/** A lifetime read from GridBank's answer is cut to this; storage's refusal decides past it. */
export const MAX_URL_LIFETIME_MS = 24 * 60 * 60_000;
/** Date has whole seconds: the lifetime is read one second short, to replace the URL in time. */
const DATE_RESOLUTION_MS = 1000;
/** IMF-fixdate, the form RFC 9110 requires of Date; any other form is not trusted. */
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * When a signed URL expires by this machine's clock. Its lifetime is GridBank's `expires_at`
 * (epoch ms; NaN when missing or unreadable) against the issuing answer's own Date header,
 * counted from when the answer arrived, so a clock skew between n8n and GridBank cancels out.
 * Without a usable Date header, `expires_at` is read as an absolute time on this clock.
 */
export function urlExpiry(
	expiresAtMs: number,
	headers: Record<string, string | string[] | undefined>,
	arrivedAtMs = Date.now(),
): number {
	if (!Number.isFinite(expiresAtMs)) return Infinity;
	const date = headers.date;
	const issuedAtMs =
		typeof date === 'string' && IMF_FIXDATE.test(date.trim()) ? Date.parse(date) : NaN;
	if (Number.isNaN(issuedAtMs)) return expiresAtMs;
	const lifetime = expiresAtMs - issuedAtMs - DATE_RESOLUTION_MS;
	return arrivedAtMs + Math.min(MAX_URL_LIFETIME_MS, Math.max(0, lifetime));
}
