// How the trigger tells a video that keeps failing for a reason of its own from an outage.
// A delivery failure that looks transient (storage 5xx, a page instead of the file, the
// download-URL request failing) is counted against the video only in a poll where another
// video was delivered: then storage and the API work, and the video stays pending for the next
// poll. After FAILED_POLLS_LIMIT such polls the video is emitted with `downloadError` instead of
// blocking the trigger for ever. A poll in which nothing was delivered counts nothing.
// Counts are keyed by video id in a Map (never a plain object: an id such as `constructor` or
// `__proto__` is an ordinary key) and saved as [id, count] pairs.
import { MAX_KEY_LENGTH } from './video-key';

/** Polls in which the same video failed while another was delivered, before it is emitted without its file. */
export const FAILED_POLLS_LIMIT = 3;
/** Videos whose failures are remembered; the oldest entries go first beyond it. */
export const MAX_TRACKED_FAILURES = 100;

/** Video key → polls it failed in while another video was delivered (1 … FAILED_POLLS_LIMIT - 1). */
export type FailureCounts = Map<string, number>;

const validCount = (count: unknown): count is number =>
	typeof count === 'number' && Number.isInteger(count) && count > 0 && count < FAILED_POLLS_LIMIT;
const validKey = (key: unknown): key is string =>
	typeof key === 'string' && key.length > 0 && key.length <= MAX_KEY_LENGTH;

/**
 * Saved counts, kept only for keys of the bounded length with small whole counts, at most
 * MAX_TRACKED_FAILURES. Reads the [id, count] pairs this version saves and the plain object
 * earlier versions saved.
 */
export function readFailures(value: unknown): FailureCounts {
	let entries: unknown[][] = [];
	if (Array.isArray(value))
		entries = value.filter((pair): pair is unknown[] => Array.isArray(pair));
	else if (value && typeof value === 'object') entries = Object.entries(value);
	const valid = entries.filter(([key, count]) => validKey(key) && validCount(count));
	return new Map(valid.slice(-MAX_TRACKED_FAILURES) as Array<[string, number]>);
}

/** The counts as saved in static data: JSON-safe pairs, whatever the ids. */
export const savedFailures = (counts: FailureCounts): Array<[string, number]> => [...counts];

/** One poll's failures counted. */
export interface Counted {
	/** Videos to emit now with `downloadError`. */
	exhausted: Set<string>;
	/** The counts to save: only videos still pending, the newest MAX_TRACKED_FAILURES. */
	next: FailureCounts;
}

/**
 * One more failed poll for each of `failed` (this poll delivered another video). Counts of
 * videos that are no longer pending (delivered, emitted, gone) are dropped.
 */
export function countFailures(
	previous: FailureCounts,
	failed: string[],
	stillPending: Set<string>,
): Counted {
	const exhausted = new Set<string>();
	const next: FailureCounts = new Map();
	for (const [key, count] of previous) if (stillPending.has(key)) next.set(key, count);
	for (const key of failed) {
		const before = previous.get(key);
		const count = (validCount(before) ? before : 0) + 1;
		next.delete(key);
		if (count >= FAILED_POLLS_LIMIT) exhausted.add(key);
		else next.set(key, count);
	}
	for (const key of exhausted) next.delete(key);
	return { exhausted, next: new Map([...next].slice(-MAX_TRACKED_FAILURES)) };
}

/** The `downloadError` of a video that failed on FAILED_POLLS_LIMIT polls while others were delivered. */
export const repeatedFailureMessage = (message: string) =>
	`${message.replace(/[.\s]+$/, '')}: the same failure on ${FAILED_POLLS_LIMIT} polls while other videos downloaded, so this video is passed on without its file`;
