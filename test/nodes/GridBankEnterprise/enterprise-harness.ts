// Searchable test videos for the Enterprise tests (the node runs through ../harness/run-gridbank).
import type { IDataObject } from 'n8n-workflow';

import type { Simulator } from '../../../simulator';

let keywordCounter = 0;

/**
 * Adds `count` searchable videos that only the returned keyword finds. Popularity falls with
 * the index, so the default sort (relevance, then popularity) returns them in `ids` order.
 */
export function addKeywordVideos(
	sim: Simulator,
	count: number,
	fields: IDataObject = {},
): { keyword: string; ids: string[] } {
	const keyword = `kw${Date.now().toString(36)}x${++keywordCounter}`;
	const ids = sim.addEnterpriseVideos(
		Array.from({ length: count }, (_, i) => ({
			title: 'Sample footage',
			keywords: [keyword],
			popularity: count - i,
			...fields,
		})),
	);
	return { keyword, ids };
}
