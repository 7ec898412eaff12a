/**
 * The echoKeyForms fault: the forms in which a server, proxy or gateway may echo the key of a
 * request's `Authorization: Bearer <key>` besides the plain text: base64 / base64url (of the
 * key, of the whole header value, of the secret part), hex, other letter cases, every
 * character percent-encoded, HTML entities, and prefixes cut after 12 characters of the secret.
 */

/** HTML5 names for the punctuation GridBank keys can hold (digits and letters have none). */
const NAMED: Record<string, string> = {
	'.': '&period;',
	_: '&lowbar;',
	'/': '&sol;',
	':': '&colon;',
	'+': '&plus;',
	'=': '&equals;',
	'"': '&quot;',
};

const alternateCase = (s: string) =>
	[...s].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('');
const percentAll = (s: string) =>
	[...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

export function keyForms(authorization: string): string[] {
	const key = authorization.replace(/^Bearer\s+/i, '');
	const secret = key.includes('.') ? key.slice(key.indexOf('.') + 1) : key;
	const header = `Bearer ${key}`;
	const base64 = (s: string) => Buffer.from(s).toString('base64');
	const base64url = (s: string) => Buffer.from(s).toString('base64url');
	const hex = (s: string) => Buffer.from(s).toString('hex');
	return [
		...[key, header, secret].flatMap((s) => [base64(s), base64url(s)]),
		hex(key),
		hex(secret).toUpperCase(),
		key.toUpperCase(),
		alternateCase(key),
		percentAll(key),
		percentAll(secret).toUpperCase(),
		[...key].map((c) => `&#${c.charCodeAt(0)};`).join(''),
		[...key].map((c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`).join(''),
		[...key]
			.map((c, i) => NAMED[c] ?? (i % 2 ? `&#x${c.charCodeAt(0).toString(16)};` : c))
			.join(''),
		// Cut, as a log line or a gateway's error page shortens it: 12 characters of the secret.
		`${header.slice(0, header.length - secret.length + 12)}...`,
		`${secret.slice(0, 12).toUpperCase()}...`,
	];
}
