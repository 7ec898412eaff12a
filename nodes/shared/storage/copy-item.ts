// Copy to Storage for one video: settings checked, If Exists asked of the bucket, the signed URL
// issued, and the download (every guard of nodes/shared/download/) streamed into the bucket by
// upload-body.ts. The item says what landed; no binary.
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { downloadToBinary } from '../download/download';
import { COPY_WINDOW_BYTES } from '../download/segment-plan';
import { TransferWaits } from '../download/transfer-waits';
import type { IssuedUrl } from '../download/download-item';
import type { ItemContext } from '../item-context';
import { readParallelConnections } from '../read-parameters';
import { existsError } from './exists-error';
import { type CopySettings, defaultKey, readCopySettings } from './copy-target';
import type { CopyRun } from './s3-call';
import { headObject } from './s3-ops';
import { uploadBody, type Uploaded } from './upload-body';

export interface CopySource {
	videoId: string;
	/** The video's id fields the item carries (video_key; video_id and search_id). */
	ids: IDataObject;
	issue: () => Promise<IssuedUrl>;
}

type Outcome = (Uploaded & { skipped: false }) | { skipped: true; size: number; etag?: string };

/** Whether the key is free: throws under "fail", tells the size under "skip". */
async function existing(run: CopyRun, settings: CopySettings) {
	if (settings.ifExists === 'overwrite') return undefined;
	const found = await headObject(run);
	if (found && settings.ifExists === 'fail') throw existsError(run.item, run.target);
	return found;
}

export async function copyItem(item: ItemContext, source: CopySource): Promise<INodeExecutionData> {
	const settings = await readCopySettings(item);
	const connections = readParallelConnections(item);
	const run: CopyRun = { item, target: settings.target, waits: new TransferWaits() };
	// A key known now is checked before GridBank is asked for anything.
	let found = settings.key === undefined ? undefined : await existing(run, settings);
	const first = await source.issue();
	const started = Date.now();
	const result = await downloadToBinary<Outcome>(item, {
		videoId: source.videoId,
		signed: first.signed,
		expectedSize: first.expectedSize,
		parallelConnections: connections,
		// A smaller window than a download's: the part buffers are held beside it (part-plan.ts).
		windowBytes: COPY_WINDOW_BYTES,
		waits: run.waits,
		reissue: async () => (await source.issue()).signed,
		store: async (body, file) => {
			// The body is let go whenever it is not read to its end (skipped, or a failure).
			let uploaded: Outcome | undefined;
			try {
				if (settings.key === undefined) {
					run.target.key = defaultKey(settings.prefix, source.videoId, file.fileName);
					found = await existing(run, settings);
				}
				if (found && found.size === file.size)
					return { skipped: true, size: found.size, etag: found.etag };
				const upload = { contentType: file.mimeType, size: file.size, connections };
				uploaded = { ...(await uploadBody(run, body, upload)), skipped: false };
				return uploaded;
			} finally {
				if (!uploaded) (body as unknown as { destroy(): void }).destroy();
			}
		},
	});
	const landed = result.binary;
	const seconds = (Date.now() - started) / 1000;
	const json: IDataObject = {
		...source.ids,
		bucket: run.target.bucket,
		key: run.target.key,
		size: landed.size,
		etag: landed.etag ?? null,
		...(!landed.skipped && landed.versionId ? { versionId: landed.versionId } : {}),
		sha256: landed.skipped ? null : landed.sha256,
		skipped: landed.skipped,
		fileName: result.fileName,
		seconds: Math.round(seconds * 1000) / 1000,
		mbps: landed.skipped
			? null
			: Math.round((landed.size / 1e6 / Math.max(seconds, 0.001)) * 100) / 100,
		// The read from GridBank's storage (download/transfer-meter.ts); null when skipped.
		transfer: landed.skipped ? null : { ...result.transfer },
	};
	return { json };
}
