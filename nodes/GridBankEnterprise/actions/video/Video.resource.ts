// The Video resource: its operation picker and the parameters of each operation.
import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../../shared/descriptions/operation-picker';
import * as get from './get.operation';
import * as getDownload from './getDownload.operation';
import * as search from './search.operation';

export { get, getDownload, search };

export const description: INodeProperties[] = [
	operationPicker(
		'video',
		[
			{
				name: 'Get',
				value: 'get',
				action: 'Get video details',
				description:
					'Get the details of one video by its ID: title, description, duration, creator, dimensions, location, keywords',
			},
			{
				name: 'Get Download',
				value: 'getDownload',
				action: 'Get a download URL for a video',
				description:
					'Get a signed, short-lived URL of the original file of one video; with Download File on, also the file itself as binary data',
			},
			{
				name: 'Search',
				value: 'search',
				action: 'Search videos by keywords',
				description:
					'Search the GridBank catalogue by words, with sort, duration and theme filters; each result has the video ID that Get and Get Download take',
			},
		],
		'search',
	),
	...search.description,
	...get.description,
	...getDownload.description,
];
