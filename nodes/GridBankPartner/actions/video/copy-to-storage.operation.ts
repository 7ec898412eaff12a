// Copy to Storage: the licensed master of one video (GET /videos/{video_key}/download, then its
// signed URL) streamed straight into the user's S3-compatible bucket, never into n8n's binary data.
import type { INodeProperties } from 'n8n-workflow';

import { copyProperties } from '../../../shared/descriptions/copy-properties';
import { videoLocator } from '../../../shared/descriptions/video-locator';
import type { ActionItem, OperationOption, OperationResult } from '../../../shared/operation';
import { readVideoParameter } from '../../../shared/read-parameters';
import { copyItem } from '../../../shared/storage/copy-item';
import { VIDEO_KEY_REGEX } from '../../../shared/validate';
import { issueDownloadUrl } from '../../transport/download-url';

export const option: OperationOption = {
	name: 'Copy to Storage',
	value: 'copyToStorage',
	action: 'Copy a licensed master to S3-compatible storage',
	description:
		"Stream the unwatermarked master of one licensed video straight into your S3-compatible bucket (AWS S3, R2, Wasabi, B2, MinIO), any size, without n8n's binary data",
};

export const description: INodeProperties[] = [
	videoLocator({
		name: 'videoKey',
		displayName: 'Video Key',
		searchListMethod: 'searchLicensedVideos',
		searchFilterRequired: false,
		idRegex: VIDEO_KEY_REGEX,
		idError:
			'A video key is 1-50 characters, without "\\", control characters or empty, "." or ".." path segments',
		placeholder: 'e.g. gbv-3fK9xQ2m',
		description:
			"The video to copy: its video_key (such as gbv-3fK9xQ2m), from this account's licences. Pick it from the list, or map video_key from List Licensed Content or the GridBank Partner Trigger.",
	}),
	...copyProperties('video_key'),
];

export async function execute(item: ActionItem): Promise<OperationResult> {
	const videoKey = readVideoParameter(item, 'videoKey', 'Video Key');
	const copied = await copyItem(item, {
		videoId: videoKey,
		ids: { video_key: videoKey },
		issue: async () => await issueDownloadUrl(item, videoKey),
	});
	return { items: [copied] };
}
