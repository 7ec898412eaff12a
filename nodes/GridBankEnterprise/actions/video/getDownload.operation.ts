// Get Download: GET /external/v1/videos/{video_id}/download, the signed URL of the original
// file, and optionally the file itself through the shared download path.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bodyObject } from '../../../shared/transport/body-checks';
import type { GridBankClient } from '../../../shared/transport/client';
import {
	downloadProperties,
	optionsCollection,
	parallelConnectionsOption,
	readMaxRetries,
	readParallelConnections,
} from '../../../shared/descriptions/common-properties';
import { downloadItem, type IssuedUrl } from '../../../shared/download/download';
import { jsonItems, type OperationResult } from '../../../shared/operation';
import { readBoolean } from '../../../shared/read-parameters';
import { encodeId, optionalInteger, requireText } from '../../../shared/validate';
import { readVideoId, videoIdProperty } from './video-id';

const show = { resource: ['video'], operation: ['getDownload'] };

export const description: INodeProperties[] = [
	videoIdProperty(show, 'to download'),
	{
		displayName: 'Expires In (Minutes)',
		name: 'expiresIn',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 5 },
		default: 5,
		displayOptions: { show },
		description: 'How long the download URL stays valid, 1 to 5 minutes',
	},
	{
		displayName: 'Search ID',
		name: 'searchId',
		type: 'string',
		default: '',
		displayOptions: { show },
		description:
			'The search_id of the search that found this video (Search puts it on every item), so GridBank can attribute the download. Optional.',
	},
	...downloadProperties(show),
	optionsCollection(show, [parallelConnectionsOption]),
];

interface EnterpriseDownload extends IDataObject {
	video_id: string;
	url: string;
	/** ISO 8601 UTC. */
	expires_at: string;
	file_size: number;
	format: string;
}

export async function execute(this: IExecuteFunctions, itemIndex: number, client: GridBankClient): Promise<OperationResult> {
	const node = this.getNode();
	const videoId = readVideoId(this, itemIndex);
	const expiresIn = optionalInteger(node, this.getNodeParameter('expiresIn', itemIndex, 5), 'Expires In', itemIndex, 1, 5);
	const searchIdValue = this.getNodeParameter('searchId', itemIndex, '');
	const searchId = searchIdValue === '' || searchIdValue === null ? undefined : requireText(node, searchIdValue, 'Search ID', itemIndex, 200);
	const download = readBoolean(node, this.getNodeParameter('download', itemIndex, false), 'Download File', itemIndex);
	const maxRetries = readMaxRetries((name, fallback) => this.getNodeParameter(name, itemIndex, fallback), this.getNode(), itemIndex);
	const parallelConnections = download
		? readParallelConnections(node, (name, fallback) => this.getNodeParameter(name, itemIndex, fallback), itemIndex)
		: 1;

	const qs: IDataObject = {};
	if (expiresIn !== undefined) qs.expires_in = expiresIn;
	if (searchId !== undefined) qs.search_id = searchId;

	let fileSize: number | undefined;
	const issue = async (): Promise<IssuedUrl> => {
		const response = await client.get<EnterpriseDownload>(`/videos/${encodeId(videoId)}/download`, {
			qs,
			itemIndex,
			maxRetries,
			subject: videoId,
		});
		const body = bodyObject(client.node, response.body, 'a download link', itemIndex) as EnterpriseDownload;
		const expiresAtMs = Date.parse(String(body.expires_at));
		const size = Number(body.file_size);
		fileSize = Number.isSafeInteger(size) && size >= 0 ? size : undefined;
		return { json: body, signed: { url: body.url, expiresAtMs: Number.isNaN(expiresAtMs) ? Infinity : expiresAtMs } };
	};

	const first = await issue();
	if (!download) return jsonItems([first.json]);
	return { items: [await downloadItem(this, client, { itemIndex, videoId, maxRetries, first, issue, expectedSize: fileSize, parallelConnections })] };
}
