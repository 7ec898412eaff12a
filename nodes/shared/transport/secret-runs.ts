// What of a secret counts as the secret, and where it runs in a view (text-views.ts). Any run of
// MIN_RUN or more consecutive characters of a secret is the secret: as itself (in the `decoded`
// and `dumpText` views), in hex (the `hex` view: twice as many digits) and in base64 / base64url
// (`decoded`: in each of the three alignments base64 can give it inside a longer string, so
// inside an encoded "Bearer <key>" or "user:<key>" too). Finding runs is one pass over a view.
import { foldCase, type View } from './text-views';

/** A run of this many consecutive characters of a secret is scrubbed as the secret. */
export const MIN_RUN = 12;

/** A text to find runs of, in one view (0 decoded, 1 hex, 2 dumpText), at least `min` long. */
export interface Target {
	text: string;
	min: number;
	view: 0 | 1 | 2;
}

const fold = (text: string) => [...text].map(foldCase).join('');

/** base64 of `bytes` placed `shift` (0-2) bytes into a 3-byte group: the characters they alone decide. */
function base64Of(bytes: Buffer, shift: number, url: boolean): string {
	const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString(
		url ? 'base64url' : 'base64',
	);
	return encoded.slice(Math.ceil((shift * 4) / 3), Math.floor(((shift + bytes.length) * 8) / 6));
}

/** The fewest base64 characters that `run` bytes decide alone, whatever their alignment. */
const base64Run = (run: number) =>
	Math.min(...[0, 1, 2].map((s) => Math.floor(((s + run) * 8) / 6) - Math.ceil((s * 4) / 3)));

/** The targets of `text`, a run being at least its first `required` characters' worth. */
function targetsFor(text: string, required: number): Target[] {
	const bytes = Buffer.from(text, 'utf8');
	const requiredBytes = Buffer.byteLength(text.slice(0, required));
	const targets: Target[] = [
		{ text: fold(text), min: required, view: 0 },
		{ text: fold(text), min: required, view: 2 },
		{ text: bytes.toString('hex'), min: 2 * requiredBytes, view: 1 },
	];
	const min64 = base64Run(requiredBytes);
	for (const shift of [0, 1, 2])
		for (const url of [false, true]) {
			const encoded = fold(base64Of(bytes, shift, url));
			if (encoded.length)
				targets.push({ text: encoded, min: Math.min(min64, encoded.length), view: 0 });
		}
	return targets;
}

/**
 * The targets of one secret. A key of GridBank's shape `<id>.<secret>`: any run of MIN_RUN
 * characters of its secret part, and the key from its start with MIN_RUN of the secret (so the
 * id goes too); a secret part too short to be only secret: the whole key.
 */
export function targetsOf(secret: string, minSecretLength: number): Target[] {
	const dot = secret.indexOf('.');
	const rest = dot >= 0 ? secret.slice(dot + 1) : '';
	if (rest.length < minSecretLength) return targetsFor(secret, Math.min(MIN_RUN, secret.length));
	const run = Math.min(MIN_RUN, rest.length);
	return [...targetsFor(secret, dot + 1 + run), ...targetsFor(rest, run)];
}

/** A view's targets indexed by their k-grams (one k for all: the shortest run's). */
export type RunIndex = Array<{ k: number; grams: Map<string, Array<[Target, number]>> }>;

export function indexTargets(targets: Target[], view: number): RunIndex {
	const mine = targets.filter((target) => target.view === view && target.min >= 1);
	if (!mine.length) return [];
	// Every run of `min` or more holds a whole k-gram starting at a multiple of k.
	const k = Math.max(1, Math.floor((Math.min(...mine.map((t) => t.min)) + 1) / 2));
	const grams = new Map<string, Array<[Target, number]>>();
	for (const target of mine)
		for (let at = 0; at + k <= target.text.length; at++) {
			const gram = target.text.slice(at, at + k);
			const list = grams.get(gram) ?? [];
			list.push([target, at]);
			grams.set(gram, list);
		}
	return [{ k, grams }];
}

/** Source spans of every run of a target in `view`, appended to `out`. */
export function findRuns(view: View, index: RunIndex, out: Array<[number, number]>): void {
	const text = view.text;
	for (const { k, grams } of index)
		for (let p = 0; p + k <= text.length; p += k) {
			const hits = grams.get(text.slice(p, p + k));
			if (!hits) continue;
			for (const [target, at] of hits) {
				let start = p;
				let t = at;
				while (start > 0 && t > 0 && text[start - 1] === target.text[t - 1]) {
					start--;
					t--;
				}
				let end = p + k;
				let u = at + k;
				while (end < text.length && u < target.text.length && text[end] === target.text[u]) {
					end++;
					u++;
				}
				if (end - start >= target.min)
					out.push([view.from[start] as number, view.to[end - 1] as number]);
			}
		}
}
