// GET /partner/v1/videos/{video_key}/download: a signed, five-minute URL of one licensed video's
// master file (Get Download URL and the trigger's Download File).
import type { IDataObject } from 'n8n-workflow';

import type { IssuedUrl } from '../../shared/download/download-item';
import { urlExpiry } from '../../shared/download/signed-url';
import type { ItemContext } from '../../shared/item-context';
import { bodyObject } from '../../shared/transport/body-checks';
import { PARTNER } from './profile';

interface PartnerDownload extends IDataObject {
	video_key: string;
	url: string;
	expires_at: number;
}

export async function issueDownloadUrl(item: ItemContext, videoKey: string): Promise<IssuedUrl> {
	const { client } = item;
	const response = await client.get<PartnerDownload>(PARTNER.paths.download(videoKey), {
		...item.scope,
		subject: videoKey,
	});
	const body = bodyObject(
		client.node,
		response.body,
		'a download link',
		item.itemIndex,
	) as PartnerDownload;
	const expires = Number(body.expires_at);
	return {
		json: body,
		signed: { url: body.url, expiresAtMs: urlExpiry(expires * 1000, response.headers) },
	};
}
