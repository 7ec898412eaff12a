// The item of a "get download URL" operation (and of the trigger with Download File on): the
// API's download object, with the file itself in a binary property when asked for.
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { ItemContext } from '../item-context';
import { jsonItems, type OperationResult } from '../operation';
import { readBoolean, readParallelConnections } from '../read-parameters';
import { requireText } from '../validate';
import { downloadToBinary } from './download';
import type { SignedUrl } from './signed-url';

export interface IssuedUrl {
	/** The API's download object, passed on as the item's JSON. */
	json: IDataObject;
	signed: SignedUrl;
	/** Size the API announced (Enterprise file_size), checked against what was stored. */
	expectedSize?: number;
}

/**
 * The API object of the URL actually used, plus fileName, mimeType, fileSize, sha256, the
 * transfer's figures (transfer-meter.ts) and the file in the binary property.
 */
export async function downloadItem(
	item: ItemContext,
	options: {
		videoId: string;
		first: IssuedUrl;
		issue: () => Promise<IssuedUrl>;
		parallelConnections: number;
	},
): Promise<INodeExecutionData> {
	const binaryPropertyName = requireText(
		item,
		item.param('binaryPropertyName', 'data'),
		'Put Output File in Field',
		200,
	);
	let json = options.first.json;
	const result = await downloadToBinary(item, {
		videoId: options.videoId,
		signed: options.first.signed,
		expectedSize: options.first.expectedSize,
		parallelConnections: options.parallelConnections,
		reissue: async () => {
			const fresh = await options.issue();
			json = fresh.json;
			return fresh.signed;
		},
	});
	return {
		json: {
			...json,
			fileName: result.fileName,
			mimeType: result.mimeType,
			fileSize: result.fileSize,
			sha256: result.sha256 ?? null,
			transfer: { ...result.transfer },
		},
		binary: { [binaryPropertyName]: result.binary },
	};
}

/**
 * A "get download URL" operation for one item: the signed URL's object, or with Download File
 * on, the file too. Its parameters are checked before the URL is asked for.
 */
export async function urlOrFile(
	item: ItemContext,
	videoId: string,
	issue: () => Promise<IssuedUrl>,
): Promise<OperationResult> {
	const download = readBoolean(item, 'download', 'Download File');
	const parallelConnections = download ? readParallelConnections(item) : 1;
	const first = await issue();
	if (!download) return jsonItems([first.json]);
	return { items: [await downloadItem(item, { videoId, first, issue, parallelConnections })] };
}
