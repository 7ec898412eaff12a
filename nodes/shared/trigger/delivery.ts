// The per-video delivery step of a poll, pluggable: the poll skeleton (downloads.ts) calls the
// chosen delivery once for each new video and adds what it returns to the video's item. A
// delivery fails by throwing: a failure concerning that video alone (isPerVideoFailure, or the
// download-URL call answering one of the trigger's "gone" statuses) is emitted with
// `downloadError`; a transient one keeps the video pending; an account-level one ends the poll
// (what was already delivered is kept). Download File is one delivery; another (a copy to
// storage) is added by returning it from chooseDelivery.
import type { IBinaryKeyData, IDataObject, IPollFunctions } from 'n8n-workflow';

import { downloadItem, type IssuedUrl } from '../download/download-item';
import type { ItemContext } from '../item-context';
import { readBoolean, readParallelConnections } from '../read-parameters';
import { copyItem } from '../storage/copy-item';

/** What a delivery adds to a video's item: output fields and, optionally, binary data. */
export interface Delivered {
	/** Fields added to the video's JSON (kept in the Video output format too). */
	json: IDataObject;
	binary?: IBinaryKeyData;
}

export interface DeliveryContext {
	item: ItemContext<IPollFunctions>;
	/** The video's id in its API's field, as the trigger lists it. */
	videoId: string;
	/** The trigger's download-URL call for this video. */
	issueUrl: () => Promise<IssuedUrl>;
}

/** Delivers one new video, or throws (see the header for how a failure is classified). */
export type VideoDelivery = (video: IDataObject, ctx: DeliveryContext) => Promise<Delivered>;

/** Download File: the master into n8n's binary data, with fileName, mimeType, fileSize, sha256, transfer. */
export const downloadDelivery =
	(parallelConnections: number): VideoDelivery =>
	async (_video, ctx) => {
		const { json, binary } = await downloadItem(ctx.item, {
			videoId: ctx.videoId,
			first: await ctx.issueUrl(),
			issue: ctx.issueUrl,
			parallelConnections,
		});
		return {
			json: {
				fileName: json.fileName,
				mimeType: json.mimeType,
				fileSize: json.fileSize,
				sha256: json.sha256,
				transfer: json.transfer,
			},
			binary,
		};
	};

/** The copy's fields a trigger's item gains (its id fields are the video's own). */
const LANDED = [
	'bucket',
	'key',
	'size',
	'etag',
	'versionId',
	'sha256',
	'skipped',
	'fileName',
	'seconds',
	'mbps',
	'transfer',
];

/** Copy to Storage: the file into the user's bucket (nodes/shared/storage/), no binary. */
export const copyDelivery: VideoDelivery = async (_video, ctx) => {
	const { json } = await copyItem(ctx.item, { videoId: ctx.videoId, ids: {}, issue: ctx.issueUrl });
	return {
		json: Object.fromEntries(
			LANDED.filter((name) => name in json).map((name) => [name, json[name]]),
		),
	};
};

/** The delivery the trigger's parameters ask for; undefined: the video's fields only. */
export function chooseDelivery(item: ItemContext<IPollFunctions>): VideoDelivery | undefined {
	if (readBoolean(item, 'download', 'Download File'))
		return downloadDelivery(readParallelConnections(item));
	if (readBoolean(item, 'copyToStorage', 'Copy to Storage')) return copyDelivery;
	return undefined;
}
