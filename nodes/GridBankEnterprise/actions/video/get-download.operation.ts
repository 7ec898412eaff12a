// Get Download: GET /external/v1/videos/{video_id}/download, the signed URL of the original
// file, and optionally the file itself through the shared download path.
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	downloadProperties,
	optionsCollection,
	parallelConnectionsOption,
} from '../../../shared/descriptions/common-properties';
import { urlOrFile } from '../../../shared/download/download-item';
import type { ActionItem, OperationOption, OperationResult } from '../../../shared/operation';
import { readInteger } from '../../../shared/read-parameters';
import { requireText } from '../../../shared/validate';
import { issueDownloadUrl } from '../../transport/download-url';
import { readVideoId, videoIdProperty } from './video-id';
import { searchIdProperty } from './search-id';

export const option: OperationOption = {
	name: 'Get Download',
	value: 'getDownload',
	action: 'Get a download URL for a video',
	description:
		'Get a signed, short-lived URL of the original file of one video; with Download File on, also the file itself as binary data',
};

export const description: INodeProperties[] = [
	videoIdProperty('to download'),
	{
		displayName: 'Expires In (Minutes)',
		name: 'expiresIn',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 5 },
		default: 5,
		description: 'How long the download URL stays valid, 1 to 5 minutes',
	},
	searchIdProperty,
	...downloadProperties(),
	optionsCollection([parallelConnectionsOption]),
];

export async function execute(item: ActionItem): Promise<OperationResult> {
	const videoId = readVideoId(item);
	const expiresIn = readInteger(item, 'expiresIn', 'Expires In', {
		min: 1,
		max: 5,
		fallback: 5,
		optional: true,
	});
	const searchIdValue = item.param('searchId', '');
	const searchId =
		searchIdValue === '' || searchIdValue === null
			? undefined
			: requireText(item, searchIdValue, 'Search ID', 200);

	const qs: IDataObject = {};
	if (expiresIn !== undefined) qs.expires_in = expiresIn;
	if (searchId !== undefined) qs.search_id = searchId;
	return await urlOrFile(item, videoId, async () => await issueDownloadUrl(item, videoId, qs));
}
