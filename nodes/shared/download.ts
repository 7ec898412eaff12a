// Signed URL → n8n binary data, streamed: the body goes straight into prepareBinaryData, so
// filesystem and S3 binary modes keep memory flat for any file size. Storage is fetched with
// the plain helper: the API key must never reach it, not even through a redirect.
import type { IBinaryData, IDataObject, IExecuteFunctions, IN8nHttpFullResponse, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import type { GridBankClient } from './client';
import { connectionError } from './errors';
import { identifyFile } from './file-name';
import { backoffMs, networkErrorCode } from './retry-policy';
import { requireText } from './validate';
import { USER_AGENT } from './version';

export interface SignedUrl {
	url: string;
	/** Epoch ms after which storage refuses the URL. */
	expiresAtMs: number;
}

export interface DownloadOptions {
	itemIndex: number;
	videoId: string;
	maxRetries: number;
	/** The URL already issued for this item. */
	signed: SignedUrl;
	/** Asks GridBank for a fresh URL (no charge; used once when the first is expired or refused). */
	reissue: () => Promise<SignedUrl>;
	/** Size the API announced (Enterprise file_size), checked against what was stored. */
	expectedSize?: number;
}

export interface DownloadResult {
	signed: SignedUrl;
	binary: IBinaryData;
	fileName: string;
	mimeType: string;
	fileSize: number;
}

/** Statuses with which S3-style storage refuses an expired or otherwise invalid signature. */
const REFUSED = new Set([400, 401, 403, 410]);
/** Idle socket time after which a stalled transfer fails instead of hanging the execution. */
const IDLE_TIMEOUT_MS = 60_000;

type Stream = NodeJS.ReadableStream & { destroy?: () => void; resume?: () => void };

const header = (headers: IN8nHttpFullResponse['headers'], name: string): string | undefined => {
	const value = headers[name];
	return Array.isArray(value) ? String(value[0]) : value === undefined ? undefined : String(value);
};

function storageError(ctx: IExecuteFunctions, itemIndex: number, message: string, description: string, status?: number) {
	return new NodeApiError(ctx.getNode(), { message, ...(status ? { status } : {}) }, {
		message,
		description,
		httpCode: status ? String(status) : undefined,
		itemIndex,
		failure: { cause: 'temporarily-unavailable' },
	});
}

export async function downloadToBinary(
	ctx: IExecuteFunctions,
	client: GridBankClient,
	options: DownloadOptions,
): Promise<DownloadResult> {
	const { itemIndex } = options;
	let signed = options.signed;
	let reissued = false;
	if (signed.expiresAtMs <= Date.now()) {
		signed = await options.reissue();
		reissued = true;
	}

	for (let attempt = 0; ; ) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await ctx.helpers.httpRequest({
				method: 'GET',
				url: signed.url,
				headers: { 'User-Agent': USER_AGENT },
				encoding: 'stream',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				timeout: IDLE_TIMEOUT_MS,
				abortSignal: client.signal,
			})) as IN8nHttpFullResponse;
		} catch (error) {
			if (client.signal?.aborted) throw error;
			const code = networkErrorCode(error) ?? 'request failed';
			if (code !== 'request failed' && attempt < options.maxRetries) {
				await sleep(backoffMs(attempt++), client.signal);
				continue;
			}
			throw connectionError(ctx.getNode(), code, { itemIndex, retries: attempt }, "GridBank's file storage");
		}

		const status = response.statusCode;
		const body = response.body as Stream;
		if (status < 200 || status >= 300) body.destroy?.();

		if (REFUSED.has(status)) {
			if (!reissued) {
				signed = await options.reissue();
				reissued = true;
				continue;
			}
			throw storageError(
				ctx,
				itemIndex,
				`GridBank's storage refused the download link twice (HTTP ${status})`,
				'A fresh link was requested after the first was refused, and it was refused too. Check that the n8n server clock is right, then try again.',
				status,
			);
		}
		if (status >= 500 && attempt < options.maxRetries) {
			await sleep(backoffMs(attempt++), client.signal);
			continue;
		}
		if (status < 200 || status >= 300)
			throw storageError(
				ctx,
				itemIndex,
				`GridBank's storage could not serve the file (HTTP ${status})`,
				'Try again in a few minutes.',
				status,
			);

		const declared = Number(header(response.headers, 'content-length') ?? NaN);
		const { fileName, mimeType } = identifyFile({
			contentDisposition: header(response.headers, 'content-disposition'),
			contentType: header(response.headers, 'content-type'),
			url: signed.url,
			videoId: options.videoId,
		});

		let binary: IBinaryData;
		try {
			binary = await ctx.helpers.prepareBinaryData(body as unknown as Buffer, fileName, mimeType);
		} catch (error) {
			if (client.signal?.aborted) throw error;
			throw storageError(
				ctx,
				itemIndex,
				'The download was cut off before the whole file arrived',
				`The connection to GridBank's storage broke during the transfer (${networkErrorCode(error) ?? 'stream error'}); no partial file was passed on. Try again.`,
			);
		}

		const stored = Number(binary.bytes);
		const expected = Number.isFinite(declared) ? declared : options.expectedSize;
		if (expected !== undefined && stored !== expected)
			throw storageError(
				ctx,
				itemIndex,
				`The download is incomplete: ${stored} of ${expected} bytes arrived`,
				'The transfer from GridBank\'s storage ended early, so the file was not passed on. Try again.',
			);
		if (options.expectedSize !== undefined && stored !== options.expectedSize)
			throw storageError(
				ctx,
				itemIndex,
				`The downloaded file has ${stored} bytes but GridBank announced ${options.expectedSize}`,
				'The file was not passed on. Try again; contact GridBank if it persists.',
			);
		return { signed, binary, fileName, mimeType, fileSize: stored };
	}
}

export interface IssuedUrl {
	/** The API's download object, passed on as the item's JSON. */
	json: IDataObject;
	signed: SignedUrl;
}

/**
 * The item of a "get download URL" operation with Download on: the API object of the URL
 * actually used, plus fileName, mimeType, fileSize and the file in the binary property.
 */
export async function downloadItem(
	ctx: IExecuteFunctions,
	client: GridBankClient,
	options: { itemIndex: number; videoId: string; maxRetries: number; first: IssuedUrl; issue: () => Promise<IssuedUrl>; expectedSize?: number },
): Promise<INodeExecutionData> {
	const { itemIndex } = options;
	const binaryPropertyName = requireText(
		ctx.getNode(),
		ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
		'Put Output File in Field',
		itemIndex,
		200,
	);
	let json = options.first.json;
	const result = await downloadToBinary(ctx, client, {
		itemIndex,
		videoId: options.videoId,
		maxRetries: options.maxRetries,
		signed: options.first.signed,
		expectedSize: options.expectedSize,
		reissue: async () => {
			const fresh = await options.issue();
			json = fresh.json;
			return fresh.signed;
		},
	});
	return {
		json: { ...json, fileName: result.fileName, mimeType: result.mimeType, fileSize: result.fileSize },
		binary: { [binaryPropertyName]: result.binary },
	};
}
