// The credential's Base URL, checked before the key is sent anywhere: https only (plain http
// only to this machine, for local testing), and nothing in it that would be sent or stored
// beside the key (a user name or password, a query string, a fragment).
export type BaseUrlCheck =
	| { ok: true; baseUrl: string }
	| { ok: false; message: string; description: string };

const HINT =
	'Use https://api2.gridbank.io for production, or the staging address GridBank gave you.';

/** localhost, 127.0.0.0/8 and [::1]: the only hosts reached over plain http. */
export function isLoopback(hostname: string): boolean {
	return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

const refuse = (message: string, description = HINT): BaseUrlCheck => ({
	ok: false,
	message,
	description,
});

export function checkBaseUrl(raw: unknown): BaseUrlCheck {
	const text = String(raw ?? '').trim();
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return refuse("The credential's Base URL is not a valid http(s) URL");
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return refuse("The credential's Base URL is not a valid http(s) URL");
	// Never echo the URL itself: it may hold a password.
	const userinfo = [url.username && 'a user name', url.password && 'a password']
		.filter(Boolean)
		.join(' and ');
	if (userinfo)
		return refuse(
			`The credential's Base URL contains ${userinfo}`,
			`GridBank is reached with the API key alone: remove the part before "@" from the Base URL. ${HINT}`,
		);
	if (url.search || text.includes('?'))
		return refuse(
			"The credential's Base URL contains a query string",
			`Remove everything from "?" on. ${HINT}`,
		);
	if (url.hash || text.includes('#'))
		return refuse(
			"The credential's Base URL contains a fragment",
			`Remove everything from "#" on. ${HINT}`,
		);
	if (url.protocol === 'http:' && !isLoopback(url.hostname))
		return refuse(
			"The credential's Base URL must start with https://",
			`Plain http:// would send the API key unencrypted; it is only accepted for this machine (localhost, 127.0.0.1, [::1]). ${HINT}`,
		);
	return { ok: true, baseUrl: `${url.origin}${url.pathname}`.replace(/\/+$/, '') };
}

/** Whether two saved base URLs name the same API (the trigger's state belongs to one). */
export function sameBaseUrl(saved: unknown, current: string): boolean {
	if (saved === current) return true;
	try {
		const url = new URL(String(saved));
		return `${url.origin}${url.pathname}`.replace(/\/+$/, '') === current;
	} catch {
		return false;
	}
}
