// A 2xx answer of up to 8 MiB (the cap, capped-body.ts) parsed without holding n8n's event loop:
// JSON.parse of an 8 MiB page whose one title is megabytes of text held it for about 40 ms at
// once. Here the structure is read in TypeScript and every string and number is still read by
// JSON.parse (a string longer than SLICE in pieces, never inside an escape), so the result and
// what is refused are JSON.parse's (and nesting past MAX_DEPTH); the loop gets a turn every
// TURN_MS. Texts of up to SLICE characters, every real page among them, go to JSON.parse whole.
import { SLICE } from './scrub';
import { sleep } from './wait';

/** The longest stretch of parsing before the event loop gets a turn. */
const TURN_MS = 10;
/**
 * Arrays and objects open at once: GridBank's pages nest a few levels deep. Parsing 8 MiB of
 * 4 Mi open brackets took 900 MiB more memory here (and held the loop 3 s in JSON.parse alone).
 */
export const MAX_DEPTH = 1000;

const [TAB, LF, CR, SPACE, QUOTE, COMMA, COLON, BACKSLASH] = [9, 10, 13, 32, 34, 44, 58, 92];
const [OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [91, 93, 123, 125];
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: Array<[string, unknown]> = [
	['true', true],
	['false', false],
	['null', null],
];

/** An array or object being read; `key`: the object's key whose value comes next. */
type Open = { array: unknown[] } | { object: Record<string, unknown>; key: string };

const refuse = (at: number) => new SyntaxError(`Unexpected token in JSON at position ${at}`);

/** JSON.parse(text), with turns of the event loop while it runs; rejects as JSON.parse throws. */
export async function parseJsonInSlices(text: string): Promise<unknown> {
	if (text.length <= SLICE) return JSON.parse(text) as unknown;
	let turnAt = Date.now();
	const turn = async () => {
		await sleep(0);
		turnAt = Date.now();
	};
	const skip = (at: number) => {
		for (let c = text.charCodeAt(at); c === SPACE || c === LF || c === CR || c === TAB; )
			c = text.charCodeAt(++at);
		return at;
	};

	/** The string whose opening quote is at `at`, and the index after its closing quote. */
	const readString = async (at: number): Promise<[string, number]> => {
		if (text.charCodeAt(at) !== QUOTE) throw refuse(at);
		let end = text.indexOf('"', at + 1);
		// A quote after an odd run of backslashes is escaped.
		for (let run = backslashesBefore(text, end); end !== -1 && run % 2 === 1; ) {
			end = text.indexOf('"', end + 1);
			run = backslashesBefore(text, end);
		}
		if (end === -1) throw refuse(text.length);
		if (end - at <= SLICE) return [JSON.parse(text.slice(at, end + 1)) as string, end + 1];
		const pieces: string[] = [];
		let escape = text.indexOf('\\', at + 1);
		for (let from = at + 1; from < end; ) {
			let to = Math.min(from + SLICE, end);
			// Never inside an escape: an escape reaching past the cut starts the next piece.
			while (escape !== -1 && escape < to) {
				const after = escape + (text.charCodeAt(escape + 1) === 117 ? 6 : 2);
				if (after > to) {
					to = escape;
					break;
				}
				escape = text.indexOf('\\', after);
			}
			if (to === from) throw refuse(from);
			pieces.push(JSON.parse(`"${text.slice(from, to)}"`) as string);
			from = to;
			if (Date.now() - turnAt >= TURN_MS) await turn();
		}
		return [pieces.join(''), end + 1];
	};

	/** A number or literal at `at` (anything else is refused), and the index after it. */
	const readScalar = (at: number): [unknown, number] => {
		NUMBER.lastIndex = at;
		const number = NUMBER.exec(text);
		if (number) return [Number(number[0]), at + number[0].length];
		const literal = LITERALS.find(([word]) => text.startsWith(word, at));
		if (!literal) throw refuse(at);
		return [literal[1], at + literal[0].length];
	};

	/** The key at `at` (after `{` or `,`) and its colon; the index after the colon. */
	const readKey = async (at: number): Promise<[string, number]> => {
		const [key, after] = await readString(skip(at));
		const colon = skip(after);
		if (text.charCodeAt(colon) !== COLON) throw refuse(colon);
		return [key, colon + 1];
	};

	const open: Open[] = [];
	let at = 0;
	let value: unknown;
	for (;;) {
		if (Date.now() - turnAt >= TURN_MS) await turn();
		at = skip(at);
		const c = text.charCodeAt(at);
		if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
			const close = c === OPEN_ARRAY ? CLOSE_ARRAY : CLOSE_OBJECT;
			const next = skip(at + 1);
			if (text.charCodeAt(next) !== close) {
				if (open.length === MAX_DEPTH)
					throw new SyntaxError(`JSON nested deeper than ${MAX_DEPTH} at position ${at}`);
				if (c === OPEN_ARRAY) open.push({ array: [] });
				else {
					const [key, after] = await readKey(next);
					open.push({ object: {}, key });
					at = after;
					continue;
				}
				at = next;
				continue;
			}
			value = c === OPEN_ARRAY ? [] : {};
			at = next + 1;
		} else if (c === QUOTE) [value, at] = await readString(at);
		else [value, at] = readScalar(at);

		// The value is whole: it joins the array or object it is in; those it ends are whole too.
		for (;;) {
			const top = open[open.length - 1];
			at = skip(at);
			if (!top) {
				if (at !== text.length) throw refuse(at);
				return value;
			}
			if ('array' in top) top.array.push(value);
			else if (top.key !== '__proto__') top.object[top.key] = value;
			// As JSON.parse does: "__proto__" is an own key, not the object's prototype.
			else Object.defineProperty(top.object, top.key, { value, ...OWN });
			const c = text.charCodeAt(at);
			if (c === COMMA) {
				if ('object' in top) [top.key, at] = await readKey(at + 1);
				else at++;
				break;
			}
			if (c !== ('array' in top ? CLOSE_ARRAY : CLOSE_OBJECT)) throw refuse(at);
			open.pop();
			value = 'array' in top ? top.array : top.object;
			at++;
		}
	}
}

/** An answer's JSON, or its text when it is not JSON (a proxy's page, an error cut short). */
export async function parseBodyInSlices(text: string): Promise<unknown> {
	try {
		return await parseJsonInSlices(text);
	} catch {
		return text;
	}
}

const OWN = { writable: true, enumerable: true, configurable: true };

/** How many backslashes stand right before `at`. */
function backslashesBefore(text: string, at: number): number {
	let run = 0;
	while (at - run - 1 >= 0 && text.charCodeAt(at - run - 1) === BACKSLASH) run++;
	return run;
}
