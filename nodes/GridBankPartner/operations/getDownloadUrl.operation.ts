// Get Download URL: GET /partner/v1/videos/{video_key}/download, optionally the file itself.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { GridBankClient } from '../../shared/client';
import { downloadProperties, optionsCollection, readMaxRetries } from '../../shared/common-properties';
import { downloadItem, type IssuedUrl } from '../../shared/download';
import { jsonItems, type OperationResult } from '../../shared/operation';
import { encodeId, requireVideoId } from '../../shared/validate';

const show = { operation: ['getDownloadUrl'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Video Key',
		name: 'videoKey',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. vk_8c1e2f',
		displayOptions: { show },
		description: 'The video_key of a video this account has licensed, as List Licensed Content returns it (1-50 characters)',
	},
	...downloadProperties(show),
	optionsCollection(show),
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
	const { body } = await client.get<PartnerDownload>(`/videos/${encodeId(videoKey)}/download`, { ...options, subject: videoKey });
	const expires = Number(body.expires_at);
	return { json: body, signed: { url: body.url, expiresAtMs: Number.isFinite(expires) ? expires * 1000 : Infinity } };
}

export async function execute(this: IExecuteFunctions, itemIndex: number, client: GridBankClient): Promise<OperationResult> {
	const videoKey = requireVideoId(this.getNode(), this.getNodeParameter('videoKey', itemIndex), 'Video Key', itemIndex);
	const download = this.getNodeParameter('download', itemIndex, false) as boolean;
	const maxRetries = readMaxRetries((name, fallback) => this.getNodeParameter(name, itemIndex, fallback));

	const issue = async () => await issuePartnerUrl(client, videoKey, { itemIndex, maxRetries });

	const first = await issue();
	if (!download) return jsonItems([first.json]);
	return { items: [await downloadItem(this, client, { itemIndex, videoId: videoKey, maxRetries, first, issue })] };
}
