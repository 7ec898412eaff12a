// One poll of the GridBank Enterprise Trigger: what it supplies to the shared poll skeleton. It
// searches `recent` (newest first) in whole pages only as deep as needed and at most
// BURST_PAGES (seen-state.ts); its id is the video's `id`; its state belongs to one search.
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { issueDownloadUrl } from '../GridBankEnterprise/transport/download-url';
import { ENTERPRISE } from '../GridBankEnterprise/transport/profile';
import { searchVideos } from '../GridBankEnterprise/transport/search';
import { readSearchQuery } from '../GridBankEnterprise/transport/search-query';
import type { ItemContext } from '../shared/item-context';
import { runPoll, type TriggerSource } from '../shared/trigger/poll-skeleton';
import {
	BURST_LIMIT,
	BURST_PAGES,
	pageReader,
	readSearchState,
	searchKey,
	searchSeen,
	type SearchState,
} from './seen-state';

export const burstHint = (count: number) =>
	`More than ${count} new videos matched since the last poll: these are the ${count} newest, older new ones were skipped (a poll reads at most ${BURST_PAGES} pages). Poll more often or narrow the search.`;

const query = (item: ItemContext<IPollFunctions>): IDataObject => ({
	...readSearchQuery(item),
	sort: 'recent',
});

export const ENTERPRISE_SOURCE: TriggerSource<SearchState> = {
	name: 'GridBank Enterprise Trigger',
	profile: ENTERPRISE,
	extras: ['search_id'],
	calls: {
		issueUrl: async (item, video) =>
			await issueDownloadUrl(item, String(video.id), searchIdOf(video)),
		// Enterprise's 403 is the account's subscription: only a vanished video is the video's own.
		goneStatuses: ['404'],
	},
	existing: { noun: 'Videos', max: BURST_LIMIT },
	sample: {
		newest: async (item) =>
			(await searchVideos(item.client, item.scope, { qs: query(item), limit: 1 })).items,
		empty: {
			message: 'No video matches this search yet',
			description:
				'There is no video to show as a sample. Try fewer words, a wider duration range or no theme, then fetch the test event again.',
		},
	},
	readState: (item, data, baseUrl) => {
		const { state, changed } = readSearchState(data, baseUrl, searchKey(query(item)));
		const note = changed
			? 'the search or Base URL changed, so this poll starts afresh and only notes what matches now'
			: undefined;
		return { state, note };
	},
	list: async ({ item }, state) => {
		const reader = pageReader(state);
		const result = await searchVideos(item.client, item.scope, {
			qs: query(item),
			limit: BURST_LIMIT,
			afterPage: reader.afterPage,
			maxPages: BURST_PAGES,
		});
		const cut =
			state &&
			!reader.reachedKnown &&
			(result.capped === true || result.items.length >= BURST_LIMIT);
		return {
			listed: result.items,
			pages: result.pages ?? 1,
			hint: cut ? burstHint(BURST_LIMIT) : undefined,
		};
	},
	seen: ({ item, baseUrl, existing }, state, { listed, pages }) =>
		searchSeen(state, listed, { baseUrl, search: searchKey(query(item)), existing, pages }),
};

export async function poll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	return await runPoll(ctx, ENTERPRISE_SOURCE);
}

/** The search_id a result came with, sent back on download for GridBank's analytics. */
function searchIdOf(video: IDataObject): IDataObject {
	return typeof video.search_id === 'string' ? { search_id: video.search_id } : {};
}
