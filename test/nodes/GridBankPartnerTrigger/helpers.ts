// Shared by the trigger tests: the list requests one key made, and what a poll emitted.
// (The trigger itself runs through pollTrigger in ../harness/run-gridbank.)
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Simulator } from '../../../simulator';

/** List requests (GET /partner/v1/content) made with `apiKey`, in order. */
export const listCalls = (sim: Simulator, apiKey: string) =>
	sim.log.filter(
		(entry) =>
			entry.target === 'api' &&
			entry.path === '/partner/v1/content' &&
			entry.headers.authorization === `Bearer ${apiKey}`,
	);

export const keysOf = (items: INodeExecutionData[] | null) =>
	(items ?? []).map((item) => item.json.video_key);

/** The video keys `apiKey` sees, newest purchase first (the simulator's own view). */
export const visibleKeys = (sim: Simulator, apiKey: string) =>
	sim.partnerLicences(apiKey).map((video) => video.video_key);

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export type State = IDataObject & { since: number | null; keys: string[]; backlog?: IDataObject[] };
