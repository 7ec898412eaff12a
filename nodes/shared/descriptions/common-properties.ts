// Parameters several operations share, defined once so they read the same everywhere.
// Their readers are in read-parameters.ts.
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_RETRIES } from '../transport/client';
import { DEFAULT_CONNECTIONS, MAX_CONNECTIONS, MIN_CONNECTIONS } from '../read-parameters';

export const maxRetriesOption: INodeProperties = {
	displayName: 'Max Retries',
	name: 'maxRetries',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 10 },
	default: DEFAULT_MAX_RETRIES,
	description:
		'How often to retry when GridBank answers "too many requests" (429, after the wait it asks for) or has a temporary fault (5xx, with growing pauses). 0 turns retries off.',
};

/** `cost`: what Return All costs in requests, shown under the toggle. */
export const returnAllProperty = (cost: string): INodeProperties => ({
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
	hint: cost,
});

/** n8n's usual Limit, default 50: n8n's verification scan requires that default (and ignores lint-disable comments). */
export const limitProperty = (): INodeProperties => ({
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	displayOptions: { show: { returnAll: [false] } },
	description: 'Max number of results to return',
});

export const downloadProperties = (): INodeProperties[] => [
	{
		displayName: 'Download File',
		name: 'download',
		type: 'boolean',
		default: false,
		description:
			"Whether to also download the master file into the item as binary data (streamed, so multi-GB files work in filesystem or S3 binary mode), ready for a storage node. Off: the output has the signed URL only, valid five minutes. An AI agent gets the file's name, type and size, never the file itself.",
	},
	{
		displayName:
			'Masters can be several GB. n8n\'s "database" binary data mode (its default in queue mode) holds 512 MiB per file unless configured higher, 1 GiB at most: for bigger files use S3 or filesystem mode, or leave Download File off and pass the URL on.',
		name: 'bigFilesNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { download: [true] } },
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		displayOptions: { show: { download: [true] } },
		description: 'Name of the binary field of the output item that receives the file, such as data',
		hint: 'The name of the output binary field to put the file in',
	},
];

/** The "Options" collection every action operation has: Max Retries, plus the operation's own. */
export const optionsCollection = (extra: INodeProperties[] = []): INodeProperties => ({
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [...extra, maxRetriesOption],
});

/** Options → Parallel Connections, always shown (a copy, a trigger that downloads or copies). */
export const parallelConnectionsAlways: INodeProperties = {
	displayName: 'Parallel Connections',
	name: 'parallelConnections',
	type: 'number',
	typeOptions: { minValue: MIN_CONNECTIONS, maxValue: MAX_CONNECTIONS },
	default: DEFAULT_CONNECTIONS,
	description:
		'How many connections fetch parts of the file at once when storage allows it (1-16). Over the internet one connection is often far slower than the link; more connections fill it. A download starts as one connection and opens the others only once they add speed (where one is already fast, as on the same network, it stays one). Holds up to 80 MiB of the file in memory per download (a copy to storage up to 120 MiB).',
};

/** Options → Parallel Connections, for operations with Download File (shown when it is on). */
export const parallelConnectionsOption: INodeProperties = {
	...parallelConnectionsAlways,
	displayOptions: { show: { '/download': [true] } },
};
