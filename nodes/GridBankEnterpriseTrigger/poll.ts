// One poll of the GridBank Enterprise Trigger: search `recent` (newest first) only as far as
// needed, emit each video that newly matches once (with its file when Download File is on),
// remember what was seen for this search.
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { issueDownloadUrl } from '../GridBankEnterprise/transport/download-url';
import { ENTERPRISE } from '../GridBankEnterprise/transport/profile';
import { searchVideos } from '../GridBankEnterprise/transport/search';
import { readSearchQuery } from '../GridBankEnterprise/transport/search-query';
import { existingToEmit, pollSettings, sample, toItems } from '../shared/trigger/poll-items';
import { writeState } from '../shared/trigger/saved-state';
import {
	afterListing,
	BURST_LIMIT,
	BURST_PAGES,
	PAGE_SIZE,
	readState,
	searchKey,
	stopPaging,
} from './seen-state';

export const burstHint = (count: number) =>
	`More than ${count} new videos matched since the last poll: these are the ${count} newest, older new ones were skipped (a poll reads at most ${BURST_PAGES} pages). Poll more often or narrow the search.`;

export async function poll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = pollSettings(ctx, ENTERPRISE, {
		extras: ['search_id'],
		delivery: {
			issueUrl: async (item, video) =>
				await issueDownloadUrl(item, String(video.id), searchIdOf(video)),
			// Enterprise's 403 is the account's subscription: only a vanished video is the video's own.
			goneStatuses: ['404'],
		},
	});
	const { item } = settings;
	const qs: IDataObject = { ...readSearchQuery(item), sort: 'recent' };
	const { baseUrl } = await item.client.getCredential(0);
	if (ctx.getMode() === 'manual')
		return await sample(
			settings,
			async () => (await searchVideos(item.client, item.scope, qs, 1)).items,
			{
				message: 'No video matches this search yet',
				description:
					'There is no video to show as a sample. Try fewer words, a wider duration range or no theme, then fetch the test event again.',
			},
		);

	const data = ctx.getWorkflowStaticData('node');
	const search = searchKey(qs);
	const { state, changed } = readState(data, baseUrl, search);
	if (changed)
		ctx.logger.info(
			'GridBank Enterprise Trigger: the search or Base URL changed, so this poll starts afresh and only notes what matches now',
		);
	const existing = state ? 0 : existingToEmit(item, 'Videos', BURST_LIMIT);
	const stopper = stopPaging(state, existing);
	const limit = state ? BURST_LIMIT : Math.max(existing, PAGE_SIZE);
	const { items: listed } = await searchVideos(item.client, item.scope, qs, limit, stopper.stopAt);
	const outcome = afterListing(state, listed, { baseUrl, search, existing });
	const { items, pending, failures } = await toItems(settings, outcome.queue, state?.failures);
	// Only a poll that got this far moves the state: a failed one is repeated in full.
	writeState(data, outcome.next(pending, failures));
	if (state && listed.length >= BURST_LIMIT && !stopper.reachedKnown && items.length) {
		ctx.logger.warn(`GridBank Enterprise Trigger: ${burstHint(BURST_LIMIT)}`);
		const last = items[items.length - 1];
		items[items.length - 1] = { ...last, json: { ...last.json, hint: burstHint(BURST_LIMIT) } };
	}
	return items.length ? [items] : null;
}

/** The search_id a result came with, sent back on download for GridBank's analytics. */
function searchIdOf(video: IDataObject): IDataObject {
	return typeof video.search_id === 'string' ? { search_id: video.search_id } : {};
}
