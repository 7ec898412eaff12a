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

import { escapeAt } from './text-escapes';

const fold = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

/** ASCII letters lower-cased, one code unit for one (String.toLowerCase can change lengths). */
export function foldCase(char: string): string {
	return char.length === 1 ? String.fromCharCode(fold(char.charCodeAt(0))) : char;
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

/** A view from parallel lists, the first `n` entries. */
function view(codes: Uint16Array, from: Int32Array, to: Int32Array, n: number): View {
	const text = Buffer.from(codes.buffer, codes.byteOffset, n * 2).toString('utf16le');
	return { text, from: from.subarray(0, n), to: to.subarray(0, n) };
}

export function viewsOf(s: string): View[] {
	// An escape decodes to at most two code units and takes at least two source characters.
	const codes = new Uint16Array(s.length);
	const from = new Int32Array(s.length);
	const to = new Int32Array(s.length);
	let n = 0;
	for (let i = 0; i < s.length; ) {
		const code = s.charCodeAt(i);
		// Whitespace and line breaks: a reader joins what they split.
		if (code === 32 || (code >= 9 && code <= 13)) {
			i++;
			continue;
		}
		const escape =
			code === 37 || code === 38 || code === 61 || code === 92 ? escapeAt(s, i) : undefined;
		if (!escape) {
			codes[n] = fold(code);
			from[n] = i;
			to[n++] = ++i;
			continue;
		}
		if (escape.code >= 0) {
			const decoded = String.fromCodePoint(escape.code);
			for (let u = 0; u < decoded.length; u++) {
				codes[n] = fold(decoded.charCodeAt(u));
				from[n] = i;
				to[n++] = i + escape.length;
			}
		}
		i += escape.length;
	}
	const decoded = view(codes, from, to, n);
	const { skip, columns } = dumpColumns(s);
	const hexCodes = new Uint16Array(n);
	const hexFrom = new Int32Array(n);
	const hexTo = new Int32Array(n);
	let h = 0;
	for (let i = 0, k = 0; i < n; i++) {
		const code = codes[i] as number;
		if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) continue;
		const at = from[i] as number;
		while (k < skip.length && (skip[k] as [number, number])[1] <= at) k++;
		if (k < skip.length && (skip[k] as [number, number])[0] <= at) continue;
		hexCodes[h] = code;
		hexFrom[h] = at;
		hexTo[h++] = to[i] as number;
	}
	const hex = view(hexCodes, hexFrom, hexTo, h);
	const views = [decoded, hex];
	if (columns.length) {
		const text: string[] = [];
		const colFrom: number[] = [];
		for (const [start, end] of columns)
			for (let i = start; i < end; i++) {
				text.push(foldCase(s[i] as string));
				colFrom.push(i);
			}
		const at = Int32Array.from(colFrom);
		views.push({ text: text.join(''), from: at, to: at.map((i) => i + 1) });
	}
	return views;
}
