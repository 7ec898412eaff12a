// The readable text behind a server's text, as views the scrubber matches secrets in. Each view
// is one string of characters, each mapped back to the source span it was read from, so a match
// can be cut out of the original. What a reader (or a decoder) would join up is joined up:
// - `decoded`: every character as itself, percent-encoded, \x / \u / JSON-escaped or an HTML
//   entity (any mix), ASCII letters lower-cased, whitespace, escaped line breaks and
//   quoted-printable soft breaks (`=` at a line end) left out: a key split by a space, wrapped
//   base64 or a soft break reads as one run;
// - `hex`: the hex digits of `decoded` alone, so separators between pairs (`61:70`, `61 70`) and
//   the offset and text columns of hexdump lines (xxd, `hexdump -C`) drop out;
// - `dumpText`: the text columns of hexdump lines, joined from line to line.

/** One view: `text[i]` was read from the source's `[from[i], to[i])`. */
export interface View {
	text: string;
	from: Int32Array;
	to: Int32Array;
}

/** HTML5 named references of ASCII punctuation (letters and digits have none). */
const NAMED: Record<string, string> = {
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
};

const ENTITY = /&#(?:x0*([0-9a-f]{1,6})|0*(\d{1,7}));?|&([a-z]{2,20});/iy;
const HEX2 = /^[0-9a-f]{2}$/i;
const HEX4 = /^[0-9a-f]{4}$/i;
const SPACE = new Set([' ', '\t', '\r', '\n', '\f', '\v']);

/** ASCII letters lower-cased, one code unit for one (String.toLowerCase can change lengths). */
export function foldCase(char: string): string {
	const code = char.charCodeAt(0);
	return code >= 65 && code <= 90 && char.length === 1 ? String.fromCharCode(code + 32) : char;
}

const fromCode = (code: number) => (code <= 0x10ffff ? foldCase(String.fromCodePoint(code)) : '');

/** At `i`: [the character read, or '' for nothing, and how many source characters it took]. */
function readAt(s: string, i: number): [string, number] {
	const c = s[i] as string;
	if (SPACE.has(c)) return ['', 1];
	const next = s[i + 1] ?? '';
	if (c === '=' && next === '\n') return ['', 2];
	if (c === '=' && next === '\r' && s[i + 2] === '\n') return ['', 3];
	if (c === '%' && HEX2.test(s.slice(i + 1, i + 3)))
		return [fromCode(parseInt(s.slice(i + 1, i + 3), 16)), 3];
	if (c === '\\') {
		if (next === 'x' && HEX2.test(s.slice(i + 2, i + 4)))
			return [fromCode(parseInt(s.slice(i + 2, i + 4), 16)), 4];
		if (next === 'u' && HEX4.test(s.slice(i + 2, i + 6)))
			return [fromCode(parseInt(s.slice(i + 2, i + 6), 16)), 6];
		if (next === '"' || next === '\\' || next === '/') return [next, 2];
		if (next === 'n' || next === 'r' || next === 't') return ['', 2];
	}
	if (c === '&') {
		ENTITY.lastIndex = i;
		const m = ENTITY.exec(s);
		const named = m?.[3] ? NAMED[m[3].toLowerCase()] : undefined;
		if (m && (m[1] || m[2]))
			return [fromCode(m[1] ? parseInt(m[1], 16) : Number(m[2])), m[0].length];
		if (m && named) return [named, m[0].length];
	}
	return [foldCase(c), 1];
}

function build(chars: string[], from: number[], to: number[]): View {
	return { text: chars.join(''), from: Int32Array.from(from), to: Int32Array.from(to) };
}

/** Lines laid out as xxd or `hexdump -C` print them: offset, hex groups, text column. */
const DUMP_LINE =
	/^([ \t]*)([0-9a-f]{4,16}:?)((?:[ \t]{1,2}[0-9a-f]{2,8})+)(?:([ \t]+\|)([^\n]*)\||([ \t]{2,})([^\n]*?))?[ \t]*\r?$/gim;

/** The source spans of hexdump offsets and text columns (left out of `hex`), and the text columns. */
function dumpColumns(s: string): {
	skip: Array<[number, number]>;
	columns: Array<[number, number]>;
} {
	const skip: Array<[number, number]> = [];
	const columns: Array<[number, number]> = [];
	if (!s.includes('\n')) return { skip, columns };
	for (const m of s.matchAll(DUMP_LINE)) {
		const at = (m.index ?? 0) + (m[1] ?? '').length;
		skip.push([at, at + (m[2] ?? '').length]);
		const column = m[5] ?? m[7];
		if (!column) continue;
		const start = at + (m[2] ?? '').length + (m[3] ?? '').length + (m[4] ?? m[6] ?? '').length;
		skip.push([start, start + column.length]);
		columns.push([start, start + column.length]);
	}
	return { skip, columns };
}

export function viewsOf(s: string): View[] {
	const chars: string[] = [];
	const from: number[] = [];
	const to: number[] = [];
	for (let i = 0; i < s.length; ) {
		const [char, taken] = readAt(s, i);
		if (char) {
			chars.push(char);
			from.push(i);
			to.push(i + taken);
		}
		i += taken;
	}
	const decoded = build(chars, from, to);
	const { skip, columns } = dumpColumns(s);
	const hex: [string[], number[], number[]] = [[], [], []];
	for (let i = 0, k = 0; i < chars.length; i++) {
		const at = from[i] as number;
		while (k < skip.length && (skip[k] as [number, number])[1] <= at) k++;
		if (k < skip.length && (skip[k] as [number, number])[0] <= at) continue;
		const c = chars[i] as string;
		if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) {
			hex[0].push(c);
			hex[1].push(at);
			hex[2].push(to[i] as number);
		}
	}
	const views = [decoded, build(...hex)];
	if (columns.length) {
		const text: [string[], number[], number[]] = [[], [], []];
		for (const [start, end] of columns)
			for (let i = start; i < end; i++) {
				text[0].push(foldCase(s[i] as string));
				text[1].push(i);
				text[2].push(i + 1);
			}
		views.push(build(...text));
	}
	return views;
}
