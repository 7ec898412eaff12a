// GET /external/v1/videos/{video_id}/download: a signed, short-lived URL of one video's original
// file, with the file's size (checked against what storage sends).
import type { IDataObject } from 'n8n-workflow';

import type { IssuedUrl } from '../../shared/download/download-item';
import { urlExpiry } from '../../shared/download/signed-url';
import type { ItemContext } from '../../shared/item-context';
import { bodyObject } from '../../shared/transport/body-checks';
import { ENTERPRISE } from './profile';

interface EnterpriseDownload extends IDataObject {
	video_id: string;
	url: string;
	/** ISO 8601 UTC. */
	expires_at: string;
	/** Bytes; null, empty or not a number means unknown. */
	file_size: number | null;
	format: string;
}

/** qs: expires_in (minutes) and search_id, as the operation read them. */
export async function issueDownloadUrl(
	item: ItemContext,
	videoId: string,
	qs: IDataObject,
): Promise<IssuedUrl> {
	const { client } = item;
	const response = await client.get<EnterpriseDownload>(ENTERPRISE.paths.download(videoId), {
		...item.scope,
		qs,
		subject: videoId,
	});
	const body = bodyObject(
		client.node,
		response.body,
		'a download link',
		item.itemIndex,
	) as EnterpriseDownload;
	// Only a whole number is a size: null, "", true or a word mean "unknown" (Number() would make
	// null, "" and false 0, true 1); the file is then checked against storage's own length.
	const size: unknown = body.file_size;
	return {
		json: body,
		signed: {
			url: body.url,
			expiresAtMs: urlExpiry(Date.parse(String(body.expires_at)), response.headers),
		},
		expectedSize:
			typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? size : undefined,
	};
}
