// The video pickers: a resource locator ("From list" or "By ID") for a video key or id, the
// list search behind "From list", and reading the chosen value back. Both nodes use the same
// code; what differs (endpoint, cursor or page numbers, server-side search or not, field names)
// is data on the API profile.
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import type { ApiProfile } from '../transport/api-profile';
import { nextCursor, videoList } from '../transport/body-checks';
import { GridBankClient } from '../transport/client';
import { LAST_PAGE } from '../transport/paging';
import { requireVideoId } from '../validate';
import { toVideo } from '../descriptions/video-shape';

/** The picker gives up on a rate-limited or failing API quickly: a person is waiting. */
const PICKER_RETRIES = 1;
/** Titles are matched here (Partner): a search reads pages until it has this many matches... */
export const PICKER_MIN_MATCHES = 20;
/** ...or has read this many pages, then hands the cursor back for "load more". */
export const PICKER_MAX_PAGES = 5;

/**
 * requireVideoId's rules as the editor's "By ID" check (n8n anchors it with ^…$): 1-50
 * characters once trimmed, no control characters or backslash, no empty, "." or ".." path
 * segment, no encoded slash or backslash. Never stricter than the node's own check, which
 * has the last word (an expression is not checked in the editor at all).
 */
export const VIDEO_KEY_REGEX = String.raw`\s*(?!/)(?!.*/\s*$)(?!.*//)(?!(?:.*/)?\.\.?(?:/|\s*$))(?!.*%(?:2[fF]|5[cC]))[^\s\\\x00-\x1f\x7f](?:[^\\\x00-\x1f\x7f]{0,48}[^\s\\\x00-\x1f\x7f])?\s*`;
/** The same for an API that also limits the alphabet to letters, digits, "/", "_" and "-". */
export const VIDEO_ID_REGEX = String.raw`\s*(?!/)(?!.*/\s*$)(?!.*//)[a-zA-Z0-9/_-]{1,50}\s*`;

interface ListPage {
	videos?: IDataObject[];
	next_cursor?: string | null;
	has_more?: boolean;
}

export interface VideoLocatorOptions {
	name: string;
	displayName: string;
	show: NonNullable<INodeProperties['displayOptions']>['show'];
	/** Name of the node's listSearch method. */
	searchListMethod: string;
	/** The list needs typed words before it shows anything (a search API has no "list all"). */
	searchFilterRequired: boolean;
	/** "By ID" check, the same rules as the node's own check (n8n wraps it in ^…$). */
	idRegex: string;
	idError: string;
	placeholder: string;
	description: string;
	hint?: string;
}

/** A video key or id parameter as a resource locator: pick from a list, or enter the key. */
export const videoLocator = (options: VideoLocatorOptions): INodeProperties => ({
	displayName: options.displayName,
	name: options.name,
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	displayOptions: { show: options.show },
	description: options.description,
	...(options.hint ? { hint: options.hint } : {}),
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: options.searchFilterRequired ? 'Type words to search…' : 'Select a video…',
			typeOptions: {
				searchListMethod: options.searchListMethod,
				searchable: true,
				searchFilterRequired: options.searchFilterRequired,
			},
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: options.placeholder,
			validation: [{ type: 'regex', properties: { regex: options.idRegex, errorMessage: options.idError } }],
		},
	],
});

/**
 * Reads a video locator for one item and checks it like any video id. A workflow saved before
 * the picker existed holds a plain string: n8n hands that back unchanged, so it still runs.
 */
export function readVideoParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	pattern?: RegExp,
): string {
	const value = ctx.getNodeParameter(name, itemIndex, undefined, { extractValue: true });
	return requireVideoId(ctx.getNode(), value, label, itemIndex, pattern);
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
	if (typeof video.purchasedAt === 'number') details.push(`licensed ${new Date(video.purchasedAt * 1000).toISOString().slice(0, 10)}`);
	if (typeof video.width === 'number' && typeof video.height === 'number') details.push(`${video.width}×${video.height}`);
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
	const request = { itemIndex: 0, maxRetries: PICKER_RETRIES };

	if (list.paging === 'page') {
		const q = searchText(filter, list.maxSearchLength);
		if (list.searchParam && !q) return { results: [] };
		const page = Math.max(1, Math.min(LAST_PAGE, Number.parseInt(paginationToken ?? '1', 10) || 1));
		const { body } = await client.get<ListPage>(list.path, {
			...request,
			qs: { ...(list.searchParam ? { [list.searchParam]: q } : {}), page, per_page: profile.maxPerPage },
		});
		const videos = videoList(client.node, body, { field: 'videos', idField: profile.idField, optional: false, what: 'a search result' }, 0);
		const results = videos.map((item) => pickerItem(toVideo(profile.videoFields, item)));
		return { results, paginationToken: body.has_more === true && page < LAST_PAGE ? String(page + 1) : undefined };
	}

	const words = searchText(filter).toLowerCase();
	const results: INodeListSearchItems[] = [];
	let cursor = paginationToken || undefined;
	let pages = 0;
	for (;;) {
		const response = await client.get<ListPage>(list.path, {
			...request,
			qs: { per_page: profile.maxPerPage, ...(cursor ? { cursor } : {}) },
			// A cursor gone stale (its encoding may change) ends the list; typing again starts afresh.
			passStatuses: cursor ? [400] : undefined,
		});
		if (response.status === 400) return { results };
		pages++;
		for (const item of videoList(client.node, response.body, { field: 'videos', idField: profile.idField, optional: true, what: 'a list page' }, 0)) {
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
	async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		return await listVideos(this, profile, filter, paginationToken);
	};
