// Server text (error bodies, proxy pages, headers) can echo the request's Authorization header,
// in any encoding. Everything GridBank, storage or a proxy sends is passed through here before
// it can reach a message, an output item, static data or a log line: every run of 12 or more
// characters of a secret that stays readable (text-views.ts: decoded, hex, hexdump; secret-runs.ts:
// as itself, hex, base64) is replaced, for each secret of the run (the API key; a storage secret).
import { findRuns, indexTargets, MIN_RUN, type RunIndex, targetsOf } from './secret-runs';
import { viewsOf } from './text-views';
import { sleep } from './wait';

const REDACTED = '[redacted]';
/** A key's secret part shorter than this could be an ordinary word: the whole key is matched then. */
const MIN_SECRET_LENGTH = 8;

/** The secrets of a run, indexed once (per credential). */
export interface Secrets {
	/** One index per view (decoded, hex, dumpText). */
	readonly indexes: RunIndex[];
	/** Texts shorter than this cannot hold a run. */
	readonly shortest: number;
}

/** Every secret to keep out of what servers send back; a second secret just joins the list. */
export function secretsOf(...secrets: string[]): Secrets {
	const targets = secrets
		.filter((s) => s.length > 0)
		.flatMap((s) => targetsOf(s, MIN_SECRET_LENGTH));
	return {
		indexes: [0, 1, 2].map((view) => indexTargets(targets, view)),
		shortest: Math.min(MIN_RUN, ...targets.map((t) => t.min)),
	};
}

/** Where runs of a secret are in `text`: source spans, in any order, possibly overlapping. */
function spansOf(text: string, secrets: Secrets): Array<[number, number]> {
	const spans: Array<[number, number]> = [];
	if (text.length < secrets.shortest) return spans;
	viewsOf(text).forEach((view, n) => findRuns(view, secrets.indexes[n] ?? [], spans));
	return spans;
}

function redact(text: string, spans: Array<[number, number]>): string {
	if (!spans.length) return text;
	spans.sort((a, b) => a[0] - b[0]);
	let out = '';
	let at = 0;
	for (const [start, end] of spans) {
		if (end <= at) continue;
		if (start >= at) out += text.slice(at, start) + REDACTED;
		at = end;
	}
	return out + text.slice(at);
}

export function scrubText(text: string, secrets: Secrets): string {
	return redact(text, spansOf(text, secrets));
}

/** Text scrubbed per slice before n8n's event loop gets a turn: a few ms each (bench: scrub). */
export const SLICE = 262_144;
/** Slices overlap by this much, so a run across a slice's end is whole in one of them. */
const OVERLAP = 16_384;

/** scrubValue for large values (a 2xx body of up to 8 MiB): the event loop runs between slices. */
export async function scrubValueInSlices(value: unknown, secrets: Secrets): Promise<unknown> {
	let sinceTurn = 0;
	const turn = async (chars: number) => {
		sinceTurn += chars;
		if (sinceTurn < SLICE) return;
		sinceTurn = 0;
		await sleep(0);
	};
	const text = async (s: string) => {
		if (s.length <= SLICE) {
			await turn(s.length);
			return scrubText(s, secrets);
		}
		const spans: Array<[number, number]> = [];
		for (let at = 0; at < s.length; at += SLICE) {
			for (const [a, b] of spansOf(s.slice(at, at + SLICE + OVERLAP), secrets))
				spans.push([a + at, b + at]);
			await turn(SLICE);
		}
		return redact(s, spans);
	};
	const walk = async (v: unknown): Promise<unknown> => {
		if (typeof v === 'string') return await text(v);
		if (Array.isArray(v)) {
			const out: unknown[] = [];
			for (const entry of v) out.push(await walk(entry));
			return out;
		}
		if (!v || typeof v !== 'object') return v;
		const out: Record<string, unknown> = {};
		for (const [name, entry] of Object.entries(v)) out[await text(name)] = await walk(entry);
		return out;
	};
	return await walk(value);
}

/** Scrubs every string (keys included) in parsed JSON. */
export function scrubValue(value: unknown, secrets: Secrets): unknown {
	if (typeof value === 'string') return scrubText(value, secrets);
	if (Array.isArray(value)) return value.map((entry) => scrubValue(entry, secrets));
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value).map(([name, entry]) => [
				scrubText(name, secrets),
				scrubValue(entry, secrets),
			]),
		);
	return value;
}

export function scrubHeaders<T extends Record<string, unknown>>(headers: T, secrets: Secrets): T {
	return scrubValue(headers, secrets) as T;
}
