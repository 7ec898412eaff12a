// One poll of the GridBank Partner Trigger: list newest-first only as far as needed, emit each
// newly licensed video once (with its file when Download File is on), remember what was seen.
import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { issueDownloadUrl } from '../GridBankPartner/transport/download-url';
import { listLicences } from '../GridBankPartner/transport/list';
import { PARTNER } from '../GridBankPartner/transport/profile';
import { existingToEmit, pollSettings, sample, toItems } from '../shared/trigger/poll-items';
import { writeState } from '../shared/trigger/saved-state';
import { afterListing, readState, stopPaging } from './seen-state';

export async function poll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = pollSettings(ctx, PARTNER, {
		extras: [],
		delivery: {
			issueUrl: async (item, video) => await issueDownloadUrl(item, String(video.video_key)),
			// 403: this video is not (or no longer) licensed; revoked access is the account's.
			goneStatuses: ['403', '404'],
		},
	});
	const { item } = settings;
	const { baseUrl } = await item.client.getCredential(0);
	if (ctx.getMode() === 'manual')
		return await sample(
			settings,
			async () => (await listLicences(item.client, item.scope, { limit: 1 })).items,
			{
				message: 'This account has not licensed any video yet',
				description:
					'There is no licence to show as a sample. License a video on GridBank (or ask the team owner to), then fetch the test event again.',
			},
		);

	const data = ctx.getWorkflowStaticData('node');
	const state = readState(data, baseUrl);
	const existing = state ? 0 : existingToEmit(item, 'Licences');
	const nowSeconds = Math.floor(settings.startedAt / 1000);
	const { items: listed } = await listLicences(item.client, item.scope, {
		stopAt: stopPaging(state, nowSeconds, existing),
	});
	const outcome = afterListing(state, listed, { baseUrl, nowSeconds, existing });
	const { items, pending, failures } = await toItems(settings, outcome.queue, state?.failures);
	// Only a poll that got this far moves the state: a failed one is repeated in full.
	writeState(data, outcome.next(pending, failures));
	return items.length ? [items] : null;
}
