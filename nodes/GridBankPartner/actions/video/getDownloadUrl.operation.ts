// Get Download URL: GET /partner/v1/videos/{video_key}/download, optionally the file itself.
import type { INodeProperties } from 'n8n-workflow';

import {
	downloadProperties,
	optionsCollection,
	parallelConnectionsOption,
} from '../../../shared/descriptions/common-properties';
import { urlOrFile } from '../../../shared/download/download-item';
import type { ActionItem, OperationOption, OperationResult } from '../../../shared/operation';
import { issueDownloadUrl } from '../../transport/download-url';
import { videoLocator } from '../../../shared/descriptions/video-locator';
import { readVideoParameter } from '../../../shared/read-parameters';
import { VIDEO_KEY_REGEX } from '../../../shared/validate';

export const option: OperationOption = {
	name: 'Get Download URL',
	value: 'getDownloadUrl',
	action: 'Get a download URL for a licensed video',
	description:
		'Get a signed, five-minute URL of the unwatermarked master file of one licensed video; with Download File on, also the file itself as binary data',
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
			"The video to download: its video_key (1-50 characters, such as gbv-3fK9xQ2m), from this account's licences. Pick it from the list (newest licence first; type to filter by title), or map video_key from List Licensed Content or the GridBank Partner Trigger.",
	}),
	...downloadProperties(),
	optionsCollection([parallelConnectionsOption]),
];

export async function execute(item: ActionItem): Promise<OperationResult> {
	const videoKey = readVideoParameter(item, 'videoKey', 'Video Key');
	return await urlOrFile(item, videoKey, async () => await issueDownloadUrl(item, videoKey));
}
