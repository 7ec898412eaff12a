// How the trigger tells a video that keeps failing for a reason of its own from an outage.
// A download failure that looks transient (storage 5xx, a page instead of the file, the
// download-URL request failing) is counted against the video only in a poll where another
// video's file was delivered: then storage and the API work, and the video stays pending for
// the next poll. After FAILED_POLLS_LIMIT such polls the video is emitted with `downloadError`
// instead of blocking the trigger for ever. A poll in which nothing was delivered counts
// nothing: it fails and changes no state, so an outage never empties a video of its file.
import type { IDataObject } from 'n8n-workflow';

/** Polls in which the same video failed while another was delivered, before it is emitted without its file. */
export const FAILED_POLLS_LIMIT = 3;
/** Videos whose failures are remembered; the oldest entries go first beyond it. */
export const MAX_TRACKED_FAILURES = 100;

/** Video key → polls it failed in while another video was delivered. */
export type FailureCounts = Record<string, number>;

/** Saved counts, kept only when they are small whole numbers, at most MAX_TRACKED_FAILURES of them. */
export function readFailures(value: unknown): FailureCounts {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
	const entries = Object.entries(value as IDataObject).filter(
		([, count]) =>
			typeof count === 'number' &&
			Number.isInteger(count) &&
			count > 0 &&
			count < FAILED_POLLS_LIMIT,
	) as Array<[string, number]>;
	return Object.fromEntries(entries.slice(-MAX_TRACKED_FAILURES));
}

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
	const next: FailureCounts = {};
	for (const [key, count] of Object.entries(previous)) if (stillPending.has(key)) next[key] = count;
	for (const key of failed) {
		const count = (previous[key] ?? 0) + 1;
		delete next[key];
		if (count >= FAILED_POLLS_LIMIT) exhausted.add(key);
		else next[key] = count;
	}
	for (const key of exhausted) delete next[key];
	const kept = Object.entries(next).slice(-MAX_TRACKED_FAILURES);
	return { exhausted, next: Object.fromEntries(kept) };
}

/** The `downloadError` of a video that failed on FAILED_POLLS_LIMIT polls while others were delivered. */
export const repeatedFailureMessage = (message: string) =>
	`${message.replace(/[.\s]+$/, '')}: the same failure on ${FAILED_POLLS_LIMIT} polls while other videos downloaded, so this video is passed on without its file`;
