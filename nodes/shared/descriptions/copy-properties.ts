// The properties of both Copy to Storage operations: Bucket, Key, If Exists, and the Options
// (Parallel Connections, Max Retries). Read by nodes/shared/storage/copy-target.ts.
import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { optionsCollection, parallelConnectionsOption } from './common-properties';

/** The S3-Compatible Storage credential is asked for only by Copy to Storage. */
export const storageCredentialShown: INodeCredentialDescription['displayOptions'] = {
	show: { operation: ['copyToStorage'] },
};

// Without Download File's display condition: a copy always transfers.
const { displayOptions, ...connectionsOption } = parallelConnectionsOption;
void displayOptions;

export const copyProperties = (videoField: string): INodeProperties[] => [
	{
		displayName: 'Bucket',
		name: 'bucket',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. newsroom-masters',
		description:
			'The bucket of the S3-Compatible Storage (GridBank) credential the file is copied into',
	},
	{
		displayName: 'Key',
		name: 'key',
		type: 'string',
		default: '',
		placeholder: `e.g. masters/{{ $json.${videoField} }}.mov`,
		description: `The object key (path in the bucket). Leave empty for gridbank/&lt;${videoField}&gt;/&lt;file name&gt;.`,
	},
	{
		displayName: 'If Exists',
		name: 'ifExists',
		type: 'options',
		options: [
			{
				name: 'Skip',
				value: 'skip',
				description: 'Keep an object of the same size at the key and copy nothing',
			},
			{ name: 'Overwrite', value: 'overwrite', description: 'Replace the object at the key' },
			{ name: 'Fail', value: 'fail', description: 'Fail the item when the key is taken' },
		],
		default: 'skip',
		description: 'What to do when the bucket already holds an object at the key',
	},
	optionsCollection([
		{
			...connectionsOption,
			description:
				'How many connections read parts of the file from GridBank and write parts to the bucket at once (1-16). Memory: up to 64 MiB of download window plus 64 MiB of parts in flight, whatever the file size.',
		},
	]),
];

/**
 * A trigger's Copy to Storage (instead of Download File): each new video's file into the bucket,
 * under Key Prefix + <video id>/<file name> (a trigger has no input item for a Key expression).
 */
export const triggerCopyProperties = (videoField: string): INodeProperties[] => {
	const shown = { show: { copyToStorage: [true] } };
	const [bucket, , ifExists] = copyProperties(videoField);
	return [
		{
			displayName: 'Copy to Storage',
			name: 'copyToStorage',
			type: 'boolean',
			default: false,
			displayOptions: { show: { download: [false] } },
			description:
				"Whether to copy each new video's file straight into an S3-compatible bucket (any size, without n8n's binary data) instead of downloading it; the item then says what landed",
		},
		{ ...bucket, displayOptions: shown },
		{
			displayName: 'Key Prefix',
			name: 'keyPrefix',
			type: 'string',
			default: 'gridbank/',
			displayOptions: shown,
			description: `Each file lands at this prefix + &lt;${videoField}&gt;/&lt;file name&gt;`,
		},
		{ ...ifExists, displayOptions: shown },
	];
};
