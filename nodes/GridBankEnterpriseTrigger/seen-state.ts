// What the Enterprise Trigger remembers between polls, and which searched videos are new.
// Pure functions over plain data: the poll skeleton reads and writes the result.
//
// Search results carry no date, only their `recent` order (newest first), and GridBank does not
// order videos published in the same second. So "new" means an id never seen in any window the
// trigger has read, and the trigger remembers the ids it has listed, most recently listed first,
// at most KEEP_KEYS (more than the BURST_PAGES × PAGE_SIZE a poll can read):
//  - the first activation reads up to BURST_PAGES pages and remembers them all, so ties served
//    in another order later, within that depth, are recognised;
//  - every poll reads whole pages: page 1 always, then the next while the page read had no run
//    of SEEN_RUN remembered videos, and at least `depth` pages after a burst (the pages the last
//    poll read when it found new videos), so a video that a withdrawal between pages shifted out
//    of sight is read by the next poll; never more than BURST_PAGES pages;
//  - the memory belongs to one search on one API: another Base URL, query, duration range or
//    theme starts afresh (the first poll then only notes what matches).
import type { IDataObject } from 'n8n-workflow';

import { sameBaseUrl } from '../shared/transport/base-url';
import type { Seen } from '../shared/trigger/poll-skeleton';
import { readKeys, readPending, type SeenState } from '../shared/trigger/saved-state';
import { videoKeyOf } from '../shared/trigger/video-key';

export const STATE_VERSION = 1;
/** Video ids remembered (keys of at most 50 characters: at most about 52 KB). */
export const KEEP_KEYS = 1000;
/** Remembered videos in a row, within a page, after which later pages count as seen. */
export const SEEN_RUN = 10;
/** The largest search page (GridBank's per_page bound): a quiet poll is one such page. */
export const PAGE_SIZE = 80;
/** Pages one poll reads at most: a larger burst of new videos emits its newest BURST_PAGES × PAGE_SIZE. */
export const BURST_PAGES = 10;
export const BURST_LIMIT = BURST_PAGES * PAGE_SIZE;

export interface SearchState extends SeenState {
	version: typeof STATE_VERSION;
	/** The search it belongs to (searchKey). */
	search: string;
	/** Pages the next poll reads at least (1 … BURST_PAGES): those of the last burst. */
	depth: number;
}

/** The key a search result is remembered by (video-key.ts). */
export const videoId = (video: IDataObject) => videoKeyOf(video.id);

/** The search's identity: what decides which videos match (never the Output Format or Download File). */
export const searchKey = (qs: IDataObject) =>
	JSON.stringify([qs.q, qs.duration_min ?? null, qs.duration_max ?? null, qs.theme ?? null]);

export interface SavedSearch {
	state?: SearchState;
	/** A state of another search or API was found and set aside: this poll starts afresh. */
	changed: boolean;
}

const readDepth = (value: unknown) =>
	typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= BURST_PAGES
		? value
		: 1;

/** The saved state of this search, if any. */
export function readSearchState(data: IDataObject, baseUrl: string, search: string): SavedSearch {
	if (data.version !== STATE_VERSION || !Array.isArray(data.keys)) return { changed: false };
	if (!sameBaseUrl(data.baseUrl, baseUrl) || data.search !== search) return { changed: true };
	const keys = readKeys(data.keys, KEEP_KEYS);
	const depth = readDepth(data.depth);
	return {
		state: { version: STATE_VERSION, baseUrl, search, keys, depth, ...readPending(data, 'id') },
		changed: false,
	};
}

export interface PageReader {
	/** After each page: whether to read the next. */
	afterPage: (videos: IDataObject[]) => boolean;
	/** Paging stopped at remembered videos (rather than at the end of the results or the cap). */
	readonly reachedKnown: boolean;
}

/** How far a poll reads (see the header). Without a state it reads until the results or the cap end. */
export function pageReader(state: SearchState | undefined): PageReader {
	const known = new Set([...(state?.keys ?? []), ...(state?.pending.map(videoId) ?? [])]);
	const needed = Math.max(1, Math.min(SEEN_RUN, known.size));
	let pages = 0;
	const reader = {
		reachedKnown: false,
		afterPage: (videos: IDataObject[]) => {
			pages++;
			if (!state) return true;
			let run = 0;
			let longest = 0;
			for (const video of videos) {
				run = known.has(videoId(video)) ? run + 1 : 0;
				longest = Math.max(longest, run);
			}
			if (longest < needed || pages < state.depth) return true;
			reader.reachedKnown = true;
			return false;
		},
	};
	return reader;
}

/**
 * Given what this poll listed (newest first, whole pages) and how many pages it read, which
 * videos are new and what to remember. Without a state nothing is new unless `existing` > 0:
 * then that many of the newest.
 */
export function searchSeen(
	state: SearchState | undefined,
	listed: IDataObject[],
	options: { baseUrl: string; search: string; existing?: number; pages?: number },
): Seen<SearchState> {
	const known = new Set([...(state?.keys ?? []), ...(state?.pending.map(videoId) ?? [])]);
	const usable = listed.filter((video) => videoId(video) !== '');
	const fresh = state
		? usable.filter((video) => !known.has(videoId(video)))
		: usable.slice(0, options.existing ?? 0);
	const keys = [...new Set([...usable.map(videoId), ...(state?.keys ?? [])])].slice(0, KEEP_KEYS);
	const pages = options.pages ?? 1;
	const depth = state && fresh.length && pages > 1 ? readDepth(pages) : 1;
	return {
		fresh,
		next: (pending, failures) => ({
			version: STATE_VERSION,
			baseUrl: options.baseUrl,
			search: options.search,
			keys,
			depth,
			pending,
			failures,
		}),
	};
}
