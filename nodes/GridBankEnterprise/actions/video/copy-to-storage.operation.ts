// Copy to Storage: the original file of one video (GET /videos/{video_id}/download, with the
// search_id as Get Download takes it) streamed straight into the user's S3-compatible bucket.
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { copyProperties } from '../../../shared/descriptions/copy-properties';
import type { ActionItem, OperationOption, OperationResult } from '../../../shared/operation';
import { copyItem } from '../../../shared/storage/copy-item';
import { requireText } from '../../../shared/validate';
import { issueDownloadUrl } from '../../transport/download-url';
import { readVideoId, videoIdProperty } from './video-id';
import { searchIdProperty } from './search-id';

export const option: OperationOption = {
	name: 'Copy to Storage',
	value: 'copyToStorage',
	action: 'Copy a video to S3-compatible storage',
	description:
		"Stream the original file of one video straight into your S3-compatible bucket (AWS S3, R2, Wasabi, B2, MinIO), any size, without n8n's binary data",
};

export const description: INodeProperties[] = [
	videoIdProperty('to copy'),
	searchIdProperty,
	...copyProperties('video_id'),
];

export async function execute(item: ActionItem): Promise<OperationResult> {
	const videoId = readVideoId(item);
	const searchIdValue = item.param('searchId', '');
	const searchId =
		searchIdValue === '' || searchIdValue === null
			? undefined
			: requireText(item, searchIdValue, 'Search ID', 200);
	const qs: IDataObject = searchId === undefined ? {} : { search_id: searchId };
	const copied = await copyItem(item, {
		videoId,
		ids: { video_id: videoId, ...(searchId === undefined ? {} : { search_id: searchId }) },
		issue: async () => await issueDownloadUrl(item, videoId, qs),
	});
	return { items: [copied] };
}
