// The list search behind a video picker's "From list" (descriptions/video-locator.ts is the
// parameter). Both nodes use the same code; what differs (endpoint, cursor or page numbers,
// server-side search or not, field names) is data on the API profile.
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import type { ApiProfile } from '../transport/api-profile';
import { nextCursor, videoList } from '../transport/body-checks';
import { GridBankClient } from '../transport/client';
import { LAST_PAGE } from '../transport/paging';
import { newWaitTally } from '../transport/wait-budget';
import { toVideo } from '../video-shape';

/** The picker gives up on a rate-limited or failing API quickly: a person is waiting. */
const PICKER_RETRIES = 1;
/** Titles are matched here (Partner): a search reads pages until it has this many matches... */
export const PICKER_MIN_MATCHES = 20;
/** ...or has read this many pages, then hands the cursor back for "load more". */
export const PICKER_MAX_PAGES = 5;

interface ListPage {
	videos?: IDataObject[];
	next_cursor?: string | null;
	has_more?: boolean;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

function formatDuration(seconds: unknown): string | undefined {
	if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return undefined;
	const whole = Math.round(seconds);
	return `${Math.floor(whole / 60)}:${twoDigits(whole % 60)}`;
}

/** One picker row: the title, then what tells similar titles apart, then the key. */
export function pickerItem(video: IDataObject): INodeListSearchItems {
	const id = String(video.id);
	const details: string[] = [];
	const duration = formatDuration(video.duration);
	if (duration) details.push(duration);
	if (typeof video.purchasedAt === 'number')
		details.push(`licensed ${new Date(video.purchasedAt * 1000).toISOString().slice(0, 10)}`);
	if (typeof video.width === 'number' && typeof video.height === 'number')
		details.push(`${video.width}×${video.height}`);
	const title = typeof video.title === 'string' && video.title.trim() ? video.title.trim() : id;
	return {
		name: [title, ...details, id].join(' · '),
		value: id,
		...(typeof video.url === 'string' && /^https?:\/\//.test(video.url) ? { url: video.url } : {}),
	};
}

/** The typed text as the API takes it: one line, within the API's bound. */
function searchText(filter: string | undefined, maxLength = Infinity): string {
	return (filter ?? '').replace(/\s+/g, ' ').trim().slice(0, maxLength);
}

/**
 * "From list" for one API. Cursor APIs (Partner) list newest first and have no search, so the
 * typed text is matched against titles and keys here, reading on until enough match; the
 * cursor is the pagination token. Search APIs (Enterprise) get the typed text as the query and
 * the page number as the token.
 */
export async function listVideos(
	ctx: ILoadOptionsFunctions,
	profile: ApiProfile,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const client = new GridBankClient(ctx, profile);
	const list = profile.videoList;
	// One search's requests share one bound on their time in the pacer.
	const request = { itemIndex: 0, maxRetries: PICKER_RETRIES, waits: newWaitTally() };

	if (list.paging === 'page') {
		const q = searchText(filter, list.maxSearchLength);
		if (list.searchParam && !q) return { results: [] };
		const page = Math.max(1, Math.min(LAST_PAGE, Number.parseInt(paginationToken ?? '1', 10) || 1));
		const { body } = await client.get<ListPage>(profile.paths.list, {
			...request,
			qs: {
				...(list.searchParam ? { [list.searchParam]: q } : {}),
				page,
				per_page: profile.maxPerPage,
			},
		});
		const videos = videoList(
			client.node,
			body,
			{ field: 'videos', idField: profile.idField, optional: false, what: 'a search result' },
			0,
		);
		const results = videos.map((item) => pickerItem(toVideo(profile.videoFields, item)));
		return {
			results,
			paginationToken: body.has_more === true && page < LAST_PAGE ? String(page + 1) : undefined,
		};
	}

	const words = searchText(filter).toLowerCase();
	const results: INodeListSearchItems[] = [];
	let cursor = paginationToken || undefined;
	let pages = 0;
	for (;;) {
		const response = await client.get<ListPage>(profile.paths.list, {
			...request,
			qs: { per_page: profile.maxPerPage, ...(cursor ? { cursor } : {}) },
			// A cursor gone stale (its encoding may change) ends the list; typing again starts afresh.
			passStatuses: cursor ? [400] : undefined,
		});
		if (response.status === 400) return { results };
		pages++;
		for (const item of videoList(
			client.node,
			response.body,
			{ field: 'videos', idField: profile.idField, optional: true, what: 'a list page' },
			0,
		)) {
			const video = toVideo(profile.videoFields, item);
			const haystack = `${String(video.title ?? '')} ${String(video.id)}`.toLowerCase();
			if (!words || haystack.includes(words)) results.push(pickerItem(video));
		}
		cursor = nextCursor(client.node, response.body as IDataObject, 0);
		if (!cursor || !words || results.length >= PICKER_MIN_MATCHES || pages >= PICKER_MAX_PAGES)
			return { results, paginationToken: cursor };
	}
}

/** The listSearch method a node registers for its picker. */
export const videoListSearch = (profile: ApiProfile) =>
	async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		return await listVideos(this, profile, filter, paginationToken);
	};
