/**
 * The echoKeyForms fault: the forms in which a server, proxy or gateway may echo the key of a
 * request's `Authorization: Bearer <key>` besides the plain text: base64 / base64url (of the
 * key, of the whole header value, of the secret part), hex, other letter cases, every
 * character percent-encoded, HTML entities, and prefixes cut after 12 characters of the secret;
 * and (field hardening IV) what stays readable to a person: hex with separators, the key split
 * by a space or a line break or a quoted-printable soft break, an xxd dump, base64 wrapped at
 * 76 columns, 12 characters from the middle of the secret. The multi-line forms come first.
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

/** xxd's layout of `text`: offset, hex in groups of 4, the text column. */
export function xxd(text: string): string {
	const bytes = Buffer.from(text);
	const lines: string[] = [];
	for (let at = 0; at < bytes.length; at += 16) {
		const chunk = bytes.subarray(at, at + 16);
		const groups = (chunk.toString('hex').match(/.{1,4}/g) ?? []).join(' ');
		const shown = [...chunk].map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.'));
		lines.push(`${at.toString(16).padStart(8, '0')}: ${groups.padEnd(39)}  ${shown.join('')}`);
	}
	return lines.join('\n');
}

/** The forms a person can still read: separated, split, wrapped, dumped. */
export function readableForms(key: string): string[] {
	const secret = key.includes('.') ? key.slice(key.indexOf('.') + 1) : key;
	const half = key.length - Math.floor(secret.length / 2);
	const wrapped = Buffer.from(`${'x'.repeat(30)}Bearer ${key}`).toString('base64');
	return [
		xxd(`Authorization: Bearer ${key}`),
		(wrapped.match(/.{1,76}/g) ?? []).join('\r\n'),
		`${key.slice(0, half)}\n${key.slice(half)}`,
		`${key.slice(0, half)}=\r\n${key.slice(half)}`,
		`${key.slice(0, half)} ${key.slice(half)}`,
		(Buffer.from(key).toString('hex').match(/../g) ?? []).join(':'),
		`(${secret.slice(2, 15)})`,
	];
}

export function keyForms(authorization: string): string[] {
	const key = authorization.replace(/^Bearer\s+/i, '');
	const secret = key.includes('.') ? key.slice(key.indexOf('.') + 1) : key;
	const header = `Bearer ${key}`;
	const base64 = (s: string) => Buffer.from(s).toString('base64');
	const base64url = (s: string) => Buffer.from(s).toString('base64url');
	const hex = (s: string) => Buffer.from(s).toString('hex');
	return [
		...readableForms(key),
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
