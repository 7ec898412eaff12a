// Shared by the trigger tests: a PollingTrigger on a simulator account, closed after each test,
// and the list requests one key made.
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { PollingTrigger, type PollingTriggerOptions } from '../harness/poll-node';
import type { Simulator } from '../../simulator';

const open: PollingTrigger[] = [];

afterEach(async () => {
	for (const trigger of open.splice(0)) await trigger.close();
});

export function partnerTrigger(
	sim: Simulator,
	apiKey: string,
	parameters: Record<string, unknown> = {},
	extra: Partial<PollingTriggerOptions> = {},
): PollingTrigger {
	const trigger = new PollingTrigger({
		type: 'gridBankPartnerTrigger',
		parameters,
		credentials: { gridBankPartnerApi: { apiKey, baseUrl: sim.baseUrl } },
		...extra,
	});
	open.push(trigger);
	return trigger;
}

/** List requests (GET /partner/v1/content) made with `apiKey`, in order. */
export const listCalls = (sim: Simulator, apiKey: string) =>
	sim.log.filter(
		(entry) =>
			entry.target === 'api' && entry.path === '/partner/v1/content' && entry.headers.authorization === `Bearer ${apiKey}`,
	);

export const keysOf = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => item.json.video_key);

/** The video keys `apiKey` sees, newest purchase first (the simulator's own view). */
export const visibleKeys = (sim: Simulator, apiKey: string) => sim.partnerLicences(apiKey).map((video) => video.video_key);

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export type State = IDataObject & { since: number | null; keys: string[]; pending?: IDataObject[] };
