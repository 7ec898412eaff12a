// Server text (error bodies, proxy pages, headers) can echo the request's Authorization header,
// in any encoding. Everything GridBank, storage or a proxy sends is passed through here before
// it can reach a message, an output item, static data or a log line: every run of 12 or more
// characters of a secret that stays readable (text-views.ts: decoded, hex, hexdump; secret-runs.ts:
// as itself, hex, base64) is replaced, for each secret of the run (the API key; a storage secret).
import { findRuns, indexTargets, MIN_RUN, type RunIndex, targetsOf } from './secret-runs';
import { viewsOf } from './text-views';

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

export function scrubText(text: string, secrets: Secrets): string {
	if (text.length < secrets.shortest || !secrets.indexes.some((index) => index.length)) return text;
	const spans: Array<[number, number]> = [];
	viewsOf(text).forEach((view, n) => findRuns(view, secrets.indexes[n] ?? [], spans));
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
