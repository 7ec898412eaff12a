// Copy to Storage: the licensed master of one video (GET /videos/{video_key}/download, then its
// signed URL) streamed straight into the user's S3-compatible bucket, never into n8n's binary data.
import type { INodeProperties } from 'n8n-workflow';

import { copyProperties } from '../../../shared/descriptions/copy-properties';
import type { ActionItem, OperationOption, OperationResult } from '../../../shared/operation';
import { copyItem } from '../../../shared/storage/copy-item';
import { issueDownloadUrl } from '../../transport/download-url';
import { readVideoKey, videoKeyProperty } from './video-key';

export const option: OperationOption = {
	name: 'Copy to Storage',
	value: 'copyToStorage',
	action: 'Copy a licensed master to S3-compatible storage',
	description:
		"Stream the unwatermarked master of one licensed video straight into your S3-compatible bucket (AWS S3, R2, Wasabi, B2, MinIO), any size, without n8n's binary data",
};

export const description: INodeProperties[] = [
	videoKeyProperty('to copy'),
	...copyProperties('video_key'),
];

export async function execute(item: ActionItem): Promise<OperationResult> {
	const videoKey = readVideoKey(item);
	const copied = await copyItem(item, {
		videoId: videoKey,
		ids: { video_key: videoKey },
		issue: async () => await issueDownloadUrl(item, videoKey),
	});
	return { items: [copied] };
}
