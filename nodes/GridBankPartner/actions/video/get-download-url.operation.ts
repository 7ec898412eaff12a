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
import { readVideoKey, videoKeyProperty } from './video-key';

export const option: OperationOption = {
	name: 'Get Download URL',
	value: 'getDownloadUrl',
	action: 'Get a download URL for a licensed video',
	description:
		'Get a signed, five-minute URL of the unwatermarked master file of one licensed video; with Download File on, also the file itself as binary data',
};

export const description: INodeProperties[] = [
	videoKeyProperty('to download'),
	...downloadProperties(),
	optionsCollection([parallelConnectionsOption]),
];

export async function execute(item: ActionItem): Promise<OperationResult> {
	const videoKey = readVideoKey(item);
	return await urlOrFile(item, videoKey, async () => await issueDownloadUrl(item, videoKey));
}
