// Reading a whole list or search. GridBank pages two ways: the Partner list by opaque
// cursor, the Enterprise search by page number. Both share the limit, the dedupe by id and
// the request budget: Return All uses the largest page; a limit fetches no more than needed.
import type { IDataObject } from 'n8n-workflow';

import { nextCursor, videoList } from './body-checks';
import type { GridBankClient } from './client';
import type { WaitTally } from './wait-budget';
import { endlessListError, listCeilingError, PageProgress } from './page-progress';

export interface PagingRequest {
	path: string;
	qs?: IDataObject;
	itemIndex: number;
	maxRetries: number;
	waits?: WaitTally;
	/** undefined = Return All. */
	limit?: number;
	/** Stop before the first item for which this is true (and everything after it). */
	stopAt?: (item: IDataObject) => boolean;
	/** Numbered pages: called with each page's videos as served; false ends the listing after it. */
	afterPage?: (videos: IDataObject[]) => boolean;
	/** Numbered pages: read at most this many (a trigger poll's page cap). */
	maxPages?: number;
}

/** What a node's list call takes besides the client and the item's scope (one shape for both APIs). */
export type ListOptions = Pick<PagingRequest, 'qs' | 'limit' | 'stopAt' | 'afterPage' | 'maxPages'>;

export interface PagingResult {
	items: IDataObject[];
	/** The search has more results than the API serves (Enterprise page cap). */
	truncated: boolean;
	/** Enterprise: pages kept coming back without a new video while has_more said more: stopped there. */
	stalled?: boolean;
	/** Numbered pages read. */
	pages?: number;
	/** Stopped at `maxPages` while the search said it had more. */
	capped?: boolean;
}

interface CursorPage {
	videos?: IDataObject[];
	next_cursor?: string | null;
}

interface NumberedPage {
	videos?: IDataObject[];
	has_more?: boolean;
	search_id?: string;
}

class Collector {
	readonly items: IDataObject[] = [];
	private readonly seen = new Set<unknown>();
	stopped = false;

	constructor(
		private readonly idField: string,
		private readonly request: PagingRequest,
	) {}

	get remaining(): number {
		return this.request.limit === undefined ? Infinity : this.request.limit - this.items.length;
	}

	/** Videos the last add() kept. */
	added = 0;

	/** Adds a page; returns false once enough has been collected. */
	add(videos: IDataObject[], extra?: IDataObject): boolean {
		this.added = 0;
		for (const video of Array.isArray(videos) ? videos : []) {
			if (this.request.stopAt?.(video)) {
				this.stopped = true;
				return false;
			}
			const id = video[this.idField];
			if (this.seen.has(id)) continue;
			this.seen.add(id);
			this.items.push(extra ? { ...video, ...extra } : video);
			this.added++;
			if (this.remaining <= 0) return false;
		}
		return true;
	}
}

/** A Partner page without `videos` is empty (GridBank documents it so); a search result must have it. */
const CURSOR_PAGE = (client: GridBankClient) => ({
	field: 'videos',
	idField: client.profile.idField,
	optional: true,
	what: 'a list page',
});
const NUMBERED_PAGE = (client: GridBankClient) => ({
	field: 'videos',
	idField: client.profile.idField,
	optional: false,
	what: 'a search result',
});

/** Partner: follow next_cursor until absent, null or "". A rejected cursor restarts once. */
export async function pageByCursor(
	client: GridBankClient,
	request: PagingRequest,
): Promise<PagingResult> {
	const max = client.profile.maxPerPage;
	const collector = new Collector(client.profile.idField, request);
	let cursor: string | undefined;
	let restarted = false;
	const progress = new PageProgress();
	for (;;) {
		// After a restart the first pages are re-read to skip what was emitted: at full size, so it
		// costs the requests Return All would make to get back there.
		const perPage = restarted ? max : Math.min(collector.remaining, max);
		const response = await client.get<CursorPage>(request.path, {
			qs: { ...request.qs, per_page: perPage, ...(cursor ? { cursor } : {}) },
			itemIndex: request.itemIndex,
			maxRetries: request.maxRetries,
			waits: request.waits,
			passStatuses: cursor && !restarted ? [400] : undefined,
		});
		if (response.status === 400) {
			// The cursor went stale (its encoding may change): start over, skipping what was emitted.
			restarted = true;
			cursor = undefined;
			progress.restarted(
				Math.ceil(collector.items.length / Math.max(1, Math.min(collector.remaining, max))),
			);
			continue;
		}
		const videos = videoList(client.node, response.body, CURSOR_PAGE(client), request.itemIndex);
		const more = collector.add(videos);
		cursor = nextCursor(client.node, response.body as IDataObject, request.itemIndex);
		if (!more || !cursor) return { items: collector.items, truncated: false };
		const stalled = progress.stalled(collector.added);
		if (progress.repeats(cursor) || stalled)
			throw endlessListError(
				client.node,
				request.itemIndex,
				stalled ? 'idle' : 'cursor',
				progress.requests,
			);
		if (progress.atCeiling(collector.items.length))
			throw listCeilingError(client.node, request.itemIndex, progress.requests);
	}
}

/** The API's last page: later page numbers are refused. */
export const LAST_PAGE = 100;

/**
 * Enterprise: page numbers are offsets, so per_page stays the same on every page of one
 * search. A limit takes the fewest pages, each as small as still covers it.
 */
export function perPageFor(limit: number | undefined, max: number): number {
	return limit === undefined ? max : Math.ceil(limit / Math.ceil(limit / max));
}

/** Enterprise: pages from 1 while has_more; each item carries the search_id of its page. */
export async function pageByNumber(
	client: GridBankClient,
	request: PagingRequest,
): Promise<PagingResult> {
	const perPage = perPageFor(request.limit, client.profile.maxPerPage);
	const collector = new Collector(client.profile.idField, request);
	let searchId: string | undefined;
	const progress = new PageProgress();
	for (let page = 1; ; page++) {
		const response = await client.get<NumberedPage>(request.path, {
			qs: { ...request.qs, page, per_page: perPage, ...(searchId ? { search_id: searchId } : {}) },
			itemIndex: request.itemIndex,
			maxRetries: request.maxRetries,
			waits: request.waits,
		});
		searchId = response.body.search_id ?? searchId;
		const videos = videoList(client.node, response.body, NUMBERED_PAGE(client), request.itemIndex);
		const more =
			collector.add(videos, { search_id: response.body.search_id ?? null }) &&
			(request.afterPage?.(Array.isArray(videos) ? videos : []) ?? true);
		const hasMore = response.body.has_more === true;
		const { items } = collector;
		if (!more || !hasMore) return { items, truncated: false, pages: page };
		// Page numbers always end (LAST_PAGE), so empty pages end the search cleanly, with a hint.
		if (progress.stalled(collector.added))
			return { items, truncated: false, stalled: true, pages: page };
		if (page === request.maxPages) return { items, truncated: false, capped: true, pages: page };
		if (page === LAST_PAGE) return { items, truncated: true, pages: page };
	}
}
