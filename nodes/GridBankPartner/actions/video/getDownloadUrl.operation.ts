// Get Download URL: GET /partner/v1/videos/{video_key}/download, optionally the file itself.
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
import { encodeId } from '../../../shared/validate';
import { readVideoParameter, VIDEO_KEY_REGEX, videoLocator } from '../../../shared/descriptions/video-locator';

const show = { operation: ['getDownloadUrl'] };

export const description: INodeProperties[] = [
	videoLocator({
		name: 'videoKey',
		displayName: 'Video Key',
		show,
		searchListMethod: 'searchLicensedVideos',
		searchFilterRequired: false,
		idRegex: VIDEO_KEY_REGEX,
		idError: 'A video key is 1-50 characters, without "\\", control characters or empty, "." or ".." path segments',
		placeholder: 'e.g. gbv-3fK9xQ2m',
		description:
			'The video to download: its video_key (1-50 characters, such as gbv-3fK9xQ2m), from this account\'s licences. Pick it from the list (newest licence first; type to filter by title), or map video_key from List Licensed Content or the GridBank Partner Trigger.',
	}),
	...downloadProperties(show),
	optionsCollection(show, [parallelConnectionsOption]),
];

interface PartnerDownload extends IDataObject {
	video_key: string;
	url: string;
	expires_at: number;
}

/** Asks for a signed URL of one licensed video (also used by the Partner Trigger's Download File). */
export async function issuePartnerUrl(
	client: GridBankClient,
	videoKey: string,
	options: { itemIndex: number; maxRetries: number },
): Promise<IssuedUrl> {
	const response = await client.get<PartnerDownload>(`/videos/${encodeId(videoKey)}/download`, { ...options, subject: videoKey });
	const body = bodyObject(client.node, response.body, 'a download link', options.itemIndex) as PartnerDownload;
	const expires = Number(body.expires_at);
	return { json: body, signed: { url: body.url, expiresAtMs: Number.isFinite(expires) ? expires * 1000 : Infinity } };
}

export async function execute(this: IExecuteFunctions, itemIndex: number, client: GridBankClient): Promise<OperationResult> {
	const videoKey = readVideoParameter(this, 'videoKey', 'Video Key', itemIndex);
	const download = readBoolean(this.getNode(), this.getNodeParameter('download', itemIndex, false), 'Download File', itemIndex);
	const maxRetries = readMaxRetries((name, fallback) => this.getNodeParameter(name, itemIndex, fallback), this.getNode(), itemIndex);
	const parallelConnections = download
		? readParallelConnections(this.getNode(), (name, fallback) => this.getNodeParameter(name, itemIndex, fallback), itemIndex)
		: 1;

	const issue = async () => await issuePartnerUrl(client, videoKey, { itemIndex, maxRetries });

	const first = await issue();
	if (!download) return jsonItems([first.json]);
	return { items: [await downloadItem(this, client, { itemIndex, videoId: videoKey, maxRetries, first, issue, parallelConnections })] };
}
