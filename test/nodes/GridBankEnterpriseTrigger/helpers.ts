// Shared by the Enterprise Trigger tests: videos that match one word only, added over time, and
// the search requests a poll made. (The trigger runs through pollEnterpriseTrigger.)
import type { INodeExecutionData } from 'n8n-workflow';

import type { LoggedRequest, Simulator } from '../../../simulator';

let words = 0;
/** A word no seeded video has, new for each call: a search of it matches only what a test adds. */
export const freshWord = () => `zyxquarry${(++words).toString(36)}${Date.now().toString(36)}`;

let clock = Date.now() - 86_400_000;
/**
 * Adds `n` videos matching `word`, each published a second after the previous one (so `recent`
 * order is the order of addition, newest last); returns their ids newest first.
 */
export function addMatching(sim: Simulator, word: string, n: number): string[] {
	const ids = sim.addEnterpriseVideos(
		Array.from({ length: n }, (_, i) => ({
			title: `${word} clip ${i}`,
			keywords: [word],
			publishedAt: (clock += 1000),
		})),
	);
	return ids.reverse();
}

/** The search requests in `log` (GET /external/v1/videos/search). */
export const searchCalls = (log: LoggedRequest[]) =>
	log.filter((entry) => entry.target === 'api' && entry.path === '/external/v1/videos/search');

export const idsOf = (items: INodeExecutionData[] | null) => (items ?? []).map((i) => i.json.id);
