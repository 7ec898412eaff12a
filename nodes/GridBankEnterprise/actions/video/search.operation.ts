// Search Videos: GET /external/v1/videos/search, numbered pages with a constant per_page,
// up to the API's last page; every item carries the search_id of its response.
import type { INodeProperties } from 'n8n-workflow';

import { ENTERPRISE } from '../../transport/profile';
import { searchVideos } from '../../transport/search';
import {
	durationMaxOption,
	durationMinOption,
	queryProperty,
	readSearchQuery,
	themeOption,
} from '../../transport/search-query';
import {
	limitProperty,
	optionsCollection,
	returnAllProperty,
} from '../../../shared/descriptions/common-properties';
import { type ActionItem, jsonItems, type OperationResult } from '../../../shared/operation';
import { UNPRODUCTIVE_PAGES } from '../../../shared/transport/page-progress';
import { LAST_PAGE } from '../../../shared/transport/paging';
import { readBoolean } from '../../../shared/read-parameters';
import { optionalInteger } from '../../../shared/validate';
import {
	outputFormatOption,
	readOutputFormat,
	shapeVideos,
} from '../../../shared/descriptions/video-shape';

const show = { resource: ['video'], operation: ['search'] };

// n8n's usual Limit default (its verification scan insists on 50), one page of 50.
const DEFAULT_LIMIT = 50;

export const description: INodeProperties[] = [
	queryProperty({ show }),
	returnAllProperty(
		{ show },
		`Costs one request per 80 videos, up to GridBank's last page (${LAST_PAGE}): at most ${LAST_PAGE} requests and ${LAST_PAGE * 80} videos per search.`,
	),
	{
		...limitProperty({ show }),
		hint: 'Reads only what the limit needs: one request per 80 videos',
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add filter',
		default: {},
		displayOptions: { show },
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
	optionsCollection(show, [outputFormatOption]),
];

export async function execute(item: ActionItem): Promise<OperationResult> {
	const { node, itemIndex } = item;
	const qs = readSearchQuery(node, item.param, itemIndex);
	const returnAll = readBoolean(node, item.param('returnAll', false), 'Return All', itemIndex);
	const limit = returnAll
		? undefined
		: (optionalInteger(node, item.param('limit', DEFAULT_LIMIT), 'Limit', itemIndex, 1) ??
			DEFAULT_LIMIT);
	const format = readOutputFormat(node, item.param('options.outputFormat', 'api'), itemIndex);

	const { items, truncated, stalled } = await searchVideos(item.client, item.scope, qs, limit);
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
