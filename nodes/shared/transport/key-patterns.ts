// Every form in which a server, proxy or gateway may echo the API key, as one regular expression
// built once per credential: a scrub is then one linear pass over the text, whatever the number
// of forms. Each character of the key may appear as itself (any letter case), JSON-escaped,
// percent-encoded or in hex (any case), or as an HTML entity; the key and its secret part also
// in base64 and base64url (in each of the three alignments base64 can give a string, so the
// key is found inside an encoded "Bearer <key>" or "user:<key>" too); and cut short, as long as
// MIN_CUT_LENGTH characters of the secret remain.

/** A cut copy of the key that keeps this many characters of the secret is scrubbed too. */
export const MIN_CUT_LENGTH = 12;

/** HTML5 named references of ASCII punctuation (letters and digits have none). */
const NAMED: Record<string, string[]> = {
	'!': ['excl'],
	'"': ['quot'],
	'#': ['num'],
	$: ['dollar'],
	'%': ['percnt'],
	'&': ['amp'],
	"'": ['apos'],
	'(': ['lpar'],
	')': ['rpar'],
	'*': ['ast', 'midast'],
	'+': ['plus'],
	',': ['comma'],
	'.': ['period'],
	'/': ['sol'],
	':': ['colon'],
	';': ['semi'],
	'<': ['lt'],
	'=': ['equals'],
	'>': ['gt'],
	'?': ['quest'],
	'@': ['commat'],
	'[': ['lsqb', 'lbrack'],
	'\\': ['bsol'],
	']': ['rsqb', 'rbrack'],
	'^': ['hat'],
	_: ['lowbar', 'underbar'],
	'`': ['grave', 'diacriticalgrave'],
	'{': ['lcub', 'lbrace'],
	'|': ['verbar', 'vert', 'verticalline'],
	'}': ['rcub', 'rbrace'],
};

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** One character in any of its forms (the expression is case-insensitive). */
function unit(char: string): string {
	const code = char.codePointAt(0) ?? 0;
	const bytes = [...Buffer.from(char, 'utf8')];
	const forms = [
		literal(char),
		// percent-encoded, \x-escaped or bare hex, byte by byte
		bytes.map((b) => `(?:%|\\\\x)?${b.toString(16).padStart(2, '0')}`).join(''),
		`\\\\u${code.toString(16).padStart(4, '0')}`,
		`&#0*${code};?`,
		`&#x0*${code.toString(16)};?`,
		...(NAMED[char] ?? []).map((name) => `&${name};`),
	];
	if (char === '"' || char === '\\' || char === '/') forms.push(`\\\\${literal(char)}`);
	return `(?:${forms.join('|')})`;
}

/** `chars`, of which the first `required` must all be there; the rest may be cut off. */
function cutAfter(chars: string[], required: number): string {
	const optional = chars
		.slice(required)
		.reduceRight((rest, char) => `(?:${unit(char)}${rest})?`, '');
	return chars.slice(0, required).map(unit).join('') + optional;
}

/**
 * base64 (or base64url) of `text` as it appears inside a longer encoded string that puts it at
 * `shift` (0-2) bytes into a 3-byte group: only the characters that depend on `text` alone.
 * `required`: how many of text's characters must be there.
 */
function base64Of(text: string, shift: number, required: number, url: boolean): string {
	const bytes = Buffer.from(text, 'utf8');
	const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString(
		url ? 'base64url' : 'base64',
	);
	const first = Math.ceil((shift * 4) / 3);
	const last = Math.floor(((shift + bytes.length) * 8) / 6);
	// A cut copy's last character also holds bits of what followed: only the whole ones count.
	const needed = Math.floor(((shift + Buffer.byteLength(text.slice(0, required))) * 8) / 6);
	const chars = [...encoded.slice(first, last)];
	return cutAfter(chars, Math.min(chars.length, needed - first));
}

/**
 * One case-insensitive, global expression for an API key: the whole key (or the key cut after
 * MIN_CUT_LENGTH characters of its secret), the secret part alone (when it is long enough not
 * to be an ordinary word), each in every form above.
 */
export function keyPattern(apiKey: string, minSecretLength: number): RegExp {
	const dot = apiKey.indexOf('.');
	const secret = dot >= 0 ? apiKey.slice(dot + 1) : apiKey;
	// A key without a secret long enough is only scrubbed whole.
	const long = secret.length >= minSecretLength;
	const keep = long ? Math.min(secret.length, MIN_CUT_LENGTH) : secret.length;
	const targets: Array<[string, number]> = [[apiKey, apiKey.length - secret.length + keep]];
	if (long && secret !== apiKey) targets.push([secret, keep]);
	const patterns = targets.flatMap(([text, required]) => [
		cutAfter([...text], required),
		...[0, 1, 2].flatMap((shift) =>
			[false, true].map((url) => base64Of(text, shift, required, url)),
		),
	]);
	return new RegExp([...new Set(patterns)].join('|'), 'gi');
}
