// An error answer can be 8 MiB of anything, retried several times: only a bounded excerpt of it
// can reach a message, so only that is scrubbed (scrubbing the whole body, once per try, held
// n8n's event loop for seconds). The excerpt keeps the shape GridBank's error readers need
// (api-message.ts, the profiles' envelope check) and at most EXCERPT_CHARS characters of text.
import { pageText } from './api-message';
import { type Secrets, scrubText } from './scrub';

/** Characters of an error body's text that are read at all (each string cut to MAX_STRING). */
const EXCERPT_CHARS = 16_384;
const MAX_STRING = 1_000;
const MAX_ENTRIES = 50;
const MAX_DEPTH = 6;
/** A page that is not JSON: this much of its start is turned into text (the message keeps 300). */
const PAGE_PREFIX = 65_536;

/** The part of a parsed error body a message can quote, scrubbed. */
export function errorExcerpt(parsed: unknown, secrets: Secrets): unknown {
	if (typeof parsed === 'string') return scrubText(pageText(parsed.slice(0, PAGE_PREFIX)), secrets);
	let budget = EXCERPT_CHARS;
	const text = (value: string) => {
		const cut = value.slice(0, Math.min(MAX_STRING, Math.max(0, budget)));
		budget -= cut.length;
		return scrubText(cut, secrets);
	};
	const copy = (value: unknown, depth: number): unknown => {
		if (typeof value === 'string') return text(value);
		if (value === null || typeof value !== 'object') return value;
		if (depth >= MAX_DEPTH) return undefined;
		if (Array.isArray(value)) return value.slice(0, MAX_ENTRIES).map((v) => copy(v, depth + 1));
		const out: Record<string, unknown> = {};
		for (const [name, entry] of Object.entries(value).slice(0, MAX_ENTRIES)) {
			if (budget <= 0) break;
			out[text(name)] = copy(entry, depth + 1);
		}
		return out;
	};
	return copy(parsed, 0);
}
