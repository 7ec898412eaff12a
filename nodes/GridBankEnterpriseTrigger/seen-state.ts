// What the Enterprise Trigger remembers between polls, and which searched videos are new.
// Pure functions over plain data: the node reads and writes the result in its static data.
//
// Search results carry no date, only their `recent` order (newest first). So the trigger
// remembers the ids it has listed, most recently listed first, at most KEEP_KEYS of them:
//  - a poll reads pages until KNOWN_RUN remembered videos come in a row (the rest is older and
//    was seen), so a quiet poll reads one page and a burst is read page by page, at most
//    BURST_PAGES of them;
//  - a video that moves up the ranking, or drops out of the search and comes back, is
//    recognised by its id and not emitted again while it is remembered;
//  - the memory belongs to one search on one API: another Base URL, query, duration range or
//    theme starts afresh (the first poll then only notes what matches).
import type { IDataObject } from 'n8n-workflow';

import { sameBaseUrl } from '../shared/transport/base-url';
import type { FailureCounts } from '../shared/trigger/failing-videos';
import { type PendingState, readPending } from '../shared/trigger/saved-state';

export const STATE_VERSION = 1;
/** Video ids remembered (at most 50 characters each, so at most about 50 KB). */
export const KEEP_KEYS = 1000;
/** Remembered videos in a row after which the rest of the results count as seen. */
export const KNOWN_RUN = 10;
/** The largest search page (GridBank's per_page bound): a quiet poll is one such page. */
export const PAGE_SIZE = 80;
/** Pages one poll reads at most: a larger burst of new videos emits its newest BURST_PAGES × PAGE_SIZE. */
export const BURST_PAGES = 10;
export const BURST_LIMIT = BURST_PAGES * PAGE_SIZE;

export interface SearchState extends PendingState {
	version: typeof STATE_VERSION;
	/** The API the state belongs to. */
	baseUrl: string;
	/** The search it belongs to (searchKey). */
	search: string;
	/** Listed video ids, most recently listed first. */
	keys: string[];
}

export const videoId = (video: IDataObject) => String(video.id);

/** The search's identity: what decides which videos match (never the Output Format or Download File). */
export const searchKey = (qs: IDataObject) =>
	JSON.stringify([qs.q, qs.duration_min ?? null, qs.duration_max ?? null, qs.theme ?? null]);

export interface SavedState {
	state?: SearchState;
	/** A state of another search or API was found and set aside: this poll starts afresh. */
	changed: boolean;
}

/** The saved state of this search, if any. */
export function readState(data: IDataObject, baseUrl: string, search: string): SavedState {
	if (data.version !== STATE_VERSION || !Array.isArray(data.keys)) return { changed: false };
	if (!sameBaseUrl(data.baseUrl, baseUrl) || data.search !== search) return { changed: true };
	const keys = data.keys.map(String).slice(0, KEEP_KEYS);
	return {
		state: { version: STATE_VERSION, baseUrl, search, keys, ...readPending(data) },
		changed: false,
	};
}

export interface Stopper {
	stopAt: (video: IDataObject) => boolean;
	/** Paging stopped at remembered videos (rather than at the end of the results or a limit). */
	readonly reachedKnown: boolean;
}

/**
 * Paging stops at the KNOWN_RUN-th remembered (or pending) video in a row, fewer when fewer
 * are remembered, once `minListed` videos were listed. Without a state it never stops early.
 */
export function stopPaging(state: SearchState | undefined, minListed = 0): Stopper {
	const known = new Set([...(state?.keys ?? []), ...(state?.pending.map(videoId) ?? [])]);
	const needed = Math.max(1, Math.min(KNOWN_RUN, known.size));
	let run = 0;
	let listed = 0;
	const stopper = {
		reachedKnown: false,
		stopAt: (video: IDataObject) => {
			run = known.has(videoId(video)) ? run + 1 : 0;
			if (state && run >= needed && listed >= minListed) return (stopper.reachedKnown = true);
			listed++;
			return false;
		},
	};
	return stopper;
}

export interface PollOutcome {
	/** Videos to emit now or later, newest first. */
	queue: IDataObject[];
	/** The state to save, given the videos of the queue not emitted yet. */
	next: (pending: IDataObject[], failures?: FailureCounts) => SearchState;
}

/**
 * Given what this poll listed (newest first, up to the stop), which videos are new and what to
 * remember. Without a state nothing is new unless `existing` > 0: then that many of the newest.
 */
export function afterListing(
	state: SearchState | undefined,
	listed: IDataObject[],
	options: { baseUrl: string; search: string; existing?: number },
): PollOutcome {
	const known = new Set([...(state?.keys ?? []), ...(state?.pending.map(videoId) ?? [])]);
	const fresh = state
		? listed.filter((video) => !known.has(videoId(video)))
		: listed.slice(0, options.existing ?? 0);
	const queue = [...fresh, ...(state?.pending ?? [])];
	const keys = [...new Set([...listed.map(videoId), ...(state?.keys ?? [])])].slice(0, KEEP_KEYS);
	return {
		queue,
		next: (pending, failures = {}) => ({
			version: STATE_VERSION,
			baseUrl: options.baseUrl,
			search: options.search,
			keys,
			pending,
			failures,
		}),
	};
}
