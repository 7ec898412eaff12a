// The Licensed Video resource: its operation picker and the parameters of each operation.
import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../../shared/descriptions/operation-picker';
import * as getDownloadUrl from './getDownloadUrl.operation';
import * as listContent from './listContent.operation';

export { getDownloadUrl, listContent };

export const description: INodeProperties[] = [
	operationPicker(
		'video',
		[
			{
				name: 'List Licensed Content',
				value: 'listContent',
				action: 'List licensed videos',
				description:
					'List the videos this account (and its team owner) has licensed, newest purchase first, with their video keys, titles and preview links',
			},
			{
				name: 'Get Download URL',
				value: 'getDownloadUrl',
				action: 'Get a download URL for a licensed video',
				description:
					'Get a signed, five-minute URL of the unwatermarked master file of one licensed video; with Download File on, also the file itself as binary data',
			},
		],
		'listContent',
	),
	...listContent.description,
	...getDownloadUrl.description,
];
