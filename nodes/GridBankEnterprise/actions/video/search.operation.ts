// Search Videos: GET /external/v1/videos/search, numbered pages with a constant per_page,
// up to the API's last page; every item carries the search_id of its response.
import type { INodeProperties } from 'n8n-workflow';

import { ENTERPRISE } from '../../transport/profile';
import { searchVideos } from '../../transport/search';
import {
	durationMaxOption,
	durationMinOption,
	queryProperty,
	themeOption,
} from '../../descriptions/search-properties';
import { readSearchQuery } from '../../transport/search-query';
import {
	limitProperty,
	optionsCollection,
	returnAllProperty,
} from '../../../shared/descriptions/common-properties';
import {
	type ActionItem,
	jsonItems,
	type OperationOption,
	type OperationResult,
} from '../../../shared/operation';
import { UNPRODUCTIVE_PAGES } from '../../../shared/transport/page-progress';
import { LAST_PAGE } from '../../../shared/transport/paging';
import { readBoolean, readInteger, readOutputFormat } from '../../../shared/read-parameters';
import { outputFormatOption } from '../../../shared/descriptions/output-format';
import { shapeVideos } from '../../../shared/video-shape';

// n8n's usual Limit default (its verification scan insists on 50), one page of 50.
const DEFAULT_LIMIT = 50;

export const option: OperationOption = {
	name: 'Search',
	value: 'search',
	action: 'Search videos by keywords',
	description:
		'Search the GridBank catalogue by words, with sort, duration and theme filters; each result has the video ID that Get and Get Download take',
};
export const subtitle = 'Search Videos';

export const description: INodeProperties[] = [
	queryProperty(),
	returnAllProperty(
		`Costs one request per 80 videos, up to GridBank's last page (${LAST_PAGE}): at most ${LAST_PAGE} requests and ${LAST_PAGE * 80} videos per search.`,
	),
	{
		...limitProperty(),
		hint: 'Reads only what the limit needs: one request per 80 videos',
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add filter',
		default: {},
		options: [
			durationMaxOption,
			durationMinOption,
			{
				displayName: 'Sort By',
				name: 'sort',
				type: 'options',
				default: 'relevant',
				options: [
					{ name: 'Most Relevant', value: 'relevant' },
					{ name: 'Most Popular', value: 'popular' },
					{ name: 'Most Recent', value: 'recent' },
				],
				description: 'Order of the results',
			},
			themeOption,
		],
	},
	optionsCollection([outputFormatOption]),
];

export async function execute(item: ActionItem): Promise<OperationResult> {
	const qs = readSearchQuery(item);
	const returnAll = readBoolean(item, 'returnAll', 'Return All');
	const limit = returnAll
		? undefined
		: (readInteger(item, 'limit', 'Limit', { min: 1, fallback: DEFAULT_LIMIT, optional: true }) ??
			DEFAULT_LIMIT);
	const format = readOutputFormat(item);

	const { items, truncated, stalled } = await searchVideos(item.client, item.scope, { qs, limit });
	const result = jsonItems(shapeVideos(format, ENTERPRISE.videoFields, items, ['search_id']));
	if (truncated)
		result.hints = [
			{
				type: 'warning',
				location: 'outputPane',
				message: `More results exist than GridBank serves: the search stopped at page ${LAST_PAGE}, its last. Narrow the search (more words, a theme or a duration range) to reach the rest.`,
			},
		];
	if (stalled)
		result.hints = [
			{
				type: 'warning',
				location: 'outputPane',
				message: `The search stopped early: GridBank sent ${UNPRODUCTIVE_PAGES} pages in a row without a new video although it said more would come. The videos found until then are in the output; run the search again later to get the rest.`,
			},
		];
	return result;
}
