// One escaped character of a server's text, decoded, for the scrubber's views (text-views.ts):
// percent-encoded, \x / \u / JSON-escaped, an HTML entity (decimal, hex or named), and what a
// reader skips (escaped line breaks, quoted-printable soft breaks). Plain characters never
// come here: the caller handles them without allocating.

/** HTML5 named references of ASCII punctuation (letters and digits have none). */
const NAMED = new Map<string, number>(
	Object.entries({
		excl: '!',
		quot: '"',
		num: '#',
		dollar: '$',
		percnt: '%',
		amp: '&',
		apos: "'",
		lpar: '(',
		rpar: ')',
		ast: '*',
		midast: '*',
		plus: '+',
		comma: ',',
		period: '.',
		sol: '/',
		colon: ':',
		semi: ';',
		lt: '<',
		equals: '=',
		gt: '>',
		quest: '?',
		commat: '@',
		lsqb: '[',
		lbrack: '[',
		bsol: '\\',
		rsqb: ']',
		rbrack: ']',
		hat: '^',
		lowbar: '_',
		underbar: '_',
		grave: '`',
		diacriticalgrave: '`',
		lcub: '{',
		lbrace: '{',
		verbar: '|',
		vert: '|',
		verticalline: '|',
		rcub: '}',
		rbrace: '}',
	}).map(([name, char]) => [name, char.charCodeAt(0)]),
);

const ENTITY = /&#(?:x0*([0-9a-f]{1,6})|0*(\d{1,7}));?|&([a-z]{2,20});/iy;

/** The value of a hex digit's code, or -1. */
export function hexValue(code: number): number {
	if (code >= 48 && code <= 57) return code - 48;
	const folded = code | 32;
	return folded >= 97 && folded <= 102 ? folded - 87 : -1;
}

/** The value of `digits` hex digits at `i`, or -1. */
function hexAt(s: string, i: number, digits: number): number {
	let value = 0;
	for (let d = 0; d < digits; d++) {
		const v = hexValue(s.charCodeAt(i + d));
		if (v < 0) return -1;
		value = value * 16 + v;
	}
	return value;
}

/** A decoded escape: the code point read (-1: nothing, a break a reader skips) and its length. */
export interface Escape {
	code: number;
	length: number;
}

const SKIP = (length: number): Escape => ({ code: -1, length });

/** The escape starting at `i` (at a '%', '\\', '&' or '='), or undefined when it is none. */
export function escapeAt(s: string, i: number): Escape | undefined {
	const c = s.charCodeAt(i);
	const next = s.charCodeAt(i + 1);
	if (c === 61 /* = */) {
		if (next === 10) return SKIP(2);
		if (next === 13 && s.charCodeAt(i + 2) === 10) return SKIP(3);
		return undefined;
	}
	if (c === 37 /* % */) {
		const v = hexAt(s, i + 1, 2);
		return v < 0 ? undefined : { code: v, length: 3 };
	}
	if (c === 92 /* \ */) {
		const x = next === 120 ? hexAt(s, i + 2, 2) : next === 117 ? hexAt(s, i + 2, 4) : -1;
		if (x >= 0) return { code: x, length: next === 120 ? 4 : 6 };
		if (next === 34 || next === 92 || next === 47) return { code: next, length: 2 };
		if (next === 110 || next === 114 || next === 116) return SKIP(2);
		return undefined;
	}
	ENTITY.lastIndex = i;
	const m = ENTITY.exec(s);
	if (!m) return undefined;
	if (m[1] || m[2]) {
		const code = m[1] ? parseInt(m[1], 16) : Number(m[2]);
		return code <= 0x10ffff ? { code, length: m[0].length } : undefined;
	}
	const named = NAMED.get((m[3] as string).toLowerCase());
	return named === undefined ? undefined : { code: named, length: m[0].length };
}
