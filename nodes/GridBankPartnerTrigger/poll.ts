// One poll of the GridBank Partner Trigger: what it supplies to the shared poll skeleton. It
// lists licences newest purchase first only as far as needed (seen-state.ts: `since` and the
// keys it remembers); its id is the video_key.
import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { issueDownloadUrl } from '../GridBankPartner/transport/download-url';
import { listLicences } from '../GridBankPartner/transport/list';
import { PARTNER } from '../GridBankPartner/transport/profile';
import { runPoll, type TriggerSource } from '../shared/trigger/poll-skeleton';
import { type PartnerState, partnerSeen, purchaseStop, readPartnerState } from './seen-state';

export const PARTNER_SOURCE: TriggerSource<PartnerState> = {
	name: 'GridBank Partner Trigger',
	profile: PARTNER,
	extras: [],
	calls: {
		issueUrl: async (item, video) => await issueDownloadUrl(item, String(video.video_key)),
		// 403: this video is not (or no longer) licensed; revoked access is the account's.
		goneStatuses: ['403', '404'],
	},
	existing: { noun: 'Licences' },
	sample: {
		newest: async (item) => (await listLicences(item.client, item.scope, { limit: 1 })).items,
		empty: {
			message: 'This account has not licensed any video yet',
			description:
				'There is no licence to show as a sample. License a video on GridBank (or ask the team owner to), then fetch the test event again.',
		},
	},
	readState: (_item, data, baseUrl) => ({ state: readPartnerState(data, baseUrl) }),
	list: async ({ item, nowSeconds, existing }, state) => ({
		listed: (
			await listLicences(item.client, item.scope, {
				stopAt: purchaseStop(state, nowSeconds, existing),
			})
		).items,
	}),
	seen: ({ baseUrl, nowSeconds, existing }, state, { listed }) =>
		partnerSeen(state, listed, { baseUrl, nowSeconds, existing }),
};

export async function poll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	return await runPoll(ctx, PARTNER_SOURCE);
}
