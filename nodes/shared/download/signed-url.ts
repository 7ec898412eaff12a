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
	/** Epoch ms after which storage refuses the URL. */
	expiresAtMs: number;
}
