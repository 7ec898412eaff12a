// parseJsonInSlices must be JSON.parse with turns of the event loop: the same value for every
// JSON text, and a SyntaxError for every text JSON.parse refuses. Texts are made larger than a
// slice (256 Ki characters), where it reads the structure itself and long strings in pieces.
import { MAX_DEPTH, parseJsonInSlices } from '../../../../nodes/shared/transport/json-in-slices';
import { SLICE } from '../../../../nodes/shared/transport/scrub';

/** A seeded generator (mulberry32): the same texts on every run. */
function random(seed: number) {
	return () => {
		seed = (seed + 0x6d2b79f5) | 0;
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const SPACES = ['', ' ', '\n', '\t', '\r\n  '];
const CHARS = ['a', 'é', '€', '😀', '"', '\\', '/', '\n', '\u0001', '\u2028', 'x', ' '];

/** One string literal, each character written raw where JSON allows it or escaped, at random. */
function literal(value: string, r: () => number): string {
	// Pieces joined once: the texts run past a slice (256 Ki characters) and are made 40 times.
	const out: string[] = ['"'];
	for (const ch of value) {
		const code = ch.codePointAt(0) as number;
		const mustEscape = ch === '"' || ch === '\\' || code < 0x20;
		if (!mustEscape && r() < 0.7) out.push(ch);
		else if (ch === '"' || ch === '\\') out.push(`\\${ch}`);
		else if (ch === '\n' && r() < 0.5) out.push('\\n');
		else
			for (let i = 0; i < ch.length; i++) {
				const hex = ch.charCodeAt(i).toString(16).padStart(4, '0');
				out.push(`\\u${r() < 0.5 ? hex : hex.toUpperCase()}`);
			}
	}
	out.push('"');
	return out.join('');
}

function text(length: number, r: () => number): string {
	const out: string[] = [];
	let size = 0;
	while (size < length) {
		const ch = CHARS[Math.floor(r() * CHARS.length)] as string;
		out.push(ch);
		size += ch.length;
	}
	return out.join('');
}

const NUMBERS = [
	'0',
	'-0',
	'12',
	'-7',
	'3.25',
	'1e3',
	'-2.5E-3',
	'6.02e+23',
	'123456789012345678901',
];

/** A random JSON text (with random spaces) of about `size` characters. */
function document(r: () => number, size: number, depth = 0): string {
	const space = () => SPACES[Math.floor(r() * SPACES.length)];
	const pick = r();
	if (depth > 6 || size < 40) {
		if (pick < 0.4) return literal(text(Math.max(1, Math.floor(r() * size)), r), r);
		if (pick < 0.8) return NUMBERS[Math.floor(r() * NUMBERS.length)] as string;
		return ['true', 'false', 'null'][Math.floor(r() * 3)] as string;
	}
	const n = 1 + Math.floor(r() * 6);
	const parts = Array.from({ length: n }, () => document(r, size / n, depth + 1));
	if (pick < 0.5) return `[${space()}${parts.join(`${space()},${space()}`)}${space()}]`;
	const keys = ['id', 'title', '__proto__', 'id', text(3, r), 'constructor'];
	const members = parts.map(
		(part, i) => `${literal(keys[i % keys.length] as string, r)}${space()}:${space()}${part}`,
	);
	return `{${space()}${members.join(`,${space()}`)}${space()}}`;
}

/** Four pads of random text past one slice, made once (making one costs more than parsing it). */
const pads: string[] = [];
const padFor = (r: () => number) =>
	pads.length < 4
		? (pads[pads.length] = literal(text(SLICE + 1000, r), r))
		: (pads[Math.floor(r() * 4)] as string);

/** Pads a document past one slice, so the sliced path reads it. */
const large = (doc: string, r: () => number) =>
	`{"pad":${padFor(r)},"doc":${doc},"list":[${doc},${doc}]}`;

test('every JSON text larger than a slice parses to what JSON.parse gives', async () => {
	const r = random(36);
	for (let i = 0; i < 40; i++) {
		const source = i % 4 === 0 ? document(r, 2 * SLICE) : large(document(r, 4000), r);
		expect(source.length).toBeGreaterThan(SLICE);
		expect(await parseJsonInSlices(source)).toEqual(JSON.parse(source));
	}
});

test('"__proto__" stays an own key, as with JSON.parse; duplicate keys keep the last value', async () => {
	const source = large('{"__proto__":{"polluted":true},"a":1,"a":2}', random(1));
	const parsed = (await parseJsonInSlices(source)) as { doc: Record<string, unknown> };
	expect(Object.getPrototypeOf(parsed.doc)).toBe(Object.prototype);
	expect(Object.keys(parsed.doc)).toEqual(['__proto__', 'a']);
	expect(parsed.doc.a).toBe(2);
	expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	expect(parsed).toEqual(JSON.parse(source));
});

test('a string longer than a slice is read in pieces, never cut inside an escape or a pair', async () => {
	// Escapes and backslash runs placed across each possible cut of the first piece.
	const escapes = ['\\u00e9', '\\ud83d\\ude00', '\\\\', '\\\\\\"', '\\n', '\\"', '😀'];
	for (const escape of escapes)
		for (let shift = -8; shift <= 2; shift++) {
			const before = 'a'.repeat(SLICE + shift);
			const source = `["${before}${escape}${'b'.repeat(SLICE)}${escape}\\\\"]`;
			expect(await parseJsonInSlices(source)).toEqual(JSON.parse(source));
		}
});

test('every text JSON.parse refuses is refused with a SyntaxError', async () => {
	const big = 'x'.repeat(SLICE);
	const bad = [
		`["${big}"`,
		`["${big}",]`,
		`{"a":"${big}",}`,
		`{"a" "${big}"}`,
		`["${big}"]]`,
		`["${big}"] x`,
		`["${big}\u0001"]`,
		`["${big}\\x41"]`,
		`["${big}\\u12G4"]`,
		`["${big}\\u12"]`,
		`["${big}\\"]`,
		`\uFEFF["${big}"]`,
		`[01, "${big}"]`,
		`[-, "${big}"]`,
		`[tru, "${big}"]`,
		`[1.e3, "${big}"]`,
		`{"${big}":1 "b":2}`,
		`{1:"${big}"}`,
		`["${big}"}`,
		`${' '.repeat(SLICE + 1)}`,
		`[NaN, "${big}"]`,
		`['${big}']`,
	];
	for (const source of bad) {
		expect(() => JSON.parse(source)).toThrow(SyntaxError);
		await expect(parseJsonInSlices(source)).rejects.toThrow(SyntaxError);
	}
});

test('a text of a slice or less is JSON.parse itself', async () => {
	expect(await parseJsonInSlices('{"videos":[{"id":1,"title":"é"}]}')).toEqual({
		videos: [{ id: 1, title: 'é' }],
	});
	await expect(parseJsonInSlices('{"videos":')).rejects.toThrow(SyntaxError);
});

test(`nesting is bounded: ${MAX_DEPTH} arrays and objects open at once are read, one more is refused`, async () => {
	const pad = `"${'x'.repeat(SLICE)}"`;
	const nested = (depth: number) => `${'[{"a":'.repeat(depth / 2)}${pad}${'}]'.repeat(depth / 2)}`;
	expect(await parseJsonInSlices(nested(MAX_DEPTH))).toEqual(JSON.parse(nested(MAX_DEPTH)));
	const deeper = `[${nested(MAX_DEPTH)}]`;
	expect(() => JSON.parse(deeper)).not.toThrow();
	await expect(parseJsonInSlices(deeper)).rejects.toThrow(`nested deeper than ${MAX_DEPTH}`);
});
