// What the Enterprise tests share: a runner for the node against a simulator (one per test
// file, from ../harness/simulator), the requests a run made, and searchable test videos.
import type { IDataObject } from 'n8n-workflow';

import { runNode, type NodeRun } from '../harness/run-node';
import type { LoggedRequest, Simulator } from '../../simulator';

export interface EnterpriseRun extends NodeRun {
	/** API requests the run made, in order. */
	calls: LoggedRequest[];
	/** Storage requests the run made. */
	storage: LoggedRequest[];
}

/** Runs GridBank Enterprise once against `baseUrl` with `apiKey`; the simulator's log is cleared first. */
export async function runEnterprise(
	sim: Simulator,
	apiKey: string,
	parameters: Record<string, unknown>,
	options: { input?: IDataObject[]; continueOnFail?: boolean; baseUrl?: string } = {},
): Promise<EnterpriseRun> {
	sim.clearLog();
	const run = await runNode({
		type: 'gridBankEnterprise',
		parameters,
		credentials: { gridBankEnterpriseApi: { apiKey, baseUrl: options.baseUrl ?? sim.baseUrl } },
		input: options.input,
		continueOnFail: options.continueOnFail,
	});
	return {
		...run,
		calls: sim.log.filter((entry) => entry.target === 'api'),
		storage: sim.log.filter((entry) => entry.target !== 'api'),
	};
}

let keywordCounter = 0;

/**
 * Adds `count` searchable videos that only the returned keyword finds. Popularity falls with
 * the index, so the default sort (relevance, then popularity) returns them in `ids` order.
 */
export function addKeywordVideos(sim: Simulator, count: number, fields: IDataObject = {}): { keyword: string; ids: string[] } {
	const keyword = `kw${Date.now().toString(36)}x${++keywordCounter}`;
	const ids = sim.addEnterpriseVideos(
		Array.from({ length: count }, (_, i) => ({ title: 'Sample footage', keywords: [keyword], popularity: count - i, ...fields })),
	);
	return { keyword, ids };
}
