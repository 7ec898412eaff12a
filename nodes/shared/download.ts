// Signed URL → n8n binary data, streamed: the body goes straight into prepareBinaryData, so
// filesystem and S3 binary modes keep memory flat for any file size. Storage is fetched with
// the plain helper: the API key must never reach it, not even through a redirect.
import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { GridBankClient } from './client';
import { connectionError, rethrowIfCancelled } from './errors';
import { identifyFile } from './file-name';
import { MEMORY_MODE_MAX_BYTES, tooBigForMemoryMode } from './memory-mode';
import { type Body, type Ending, resumingBody, TransferError } from './resuming-body';
import { backoffMs, networkErrorCode } from './retry-policy';
import { requireText } from './validate';
import { USER_AGENT } from './version';
import { sleep } from './wait';

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

/** Action nodes download per input item; the Partner Trigger downloads what a poll found. */
export type DownloadContext = IExecuteFunctions | IPollFunctions;

/*
 * Big files and n8n's binary data modes. In `database` mode (n8n's default in queue mode) n8n
 * buffers a whole file in memory, then refuses it above N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE
 * (512 MiB by default, 1 GiB at most). A node may not read n8n's settings or environment
 * variables, and n8n hands nodes neither the mode nor the limit. So this relies only on what
 * n8n itself gives nodes:
 * - The mode: n8n's prepareBinaryData helper names its store in the id of what it stored
 *   ("database:…", "filesystem-v2:…", "s3:…"; no id when binaries stay in memory), so an empty
 *   probe file tells it, once per node run, and only for a file over 100 MiB (memory-mode.ts
 *   refuses those when n8n keeps binary data in memory).
 * - A file whose size is known before its body (Enterprise's file_size, storage's Content-Range
 *   total or Content-Length) and over 1 GiB, which no database-mode setting can hold, fails
 *   before the body is read: no multi-GB buffer in a worker's memory.
 * - A file of 1 GiB or less above a lower configured limit is refused by n8n itself, after it
 *   buffered the file: its own error (FileTooLargeError, "… set for `database` mode") is
 *   recognised and replaced by the same advice, instead of being reported as a broken transfer.
 */
const DATABASE_MODE_MAX_BYTES = 1024 * 1024 * 1024;
const storeModes = new WeakMap<DownloadContext, Promise<string>>();

/** n8n's binary data mode, as its own helper reveals it; "unknown" if the probe failed. */
function binaryDataMode(ctx: DownloadContext): Promise<string> {
	let mode = storeModes.get(ctx);
	if (!mode) {
		mode = ctx.helpers.prepareBinaryData(Buffer.alloc(0), 'gridbank-binary-mode-probe').then(
			(probe) => (probe.id ? probe.id.slice(0, probe.id.indexOf(':')) : 'memory'),
			() => 'unknown',
		);
		storeModes.set(ctx, mode);
	}
	return mode;
}

const mib = (bytes: number) => `${Math.ceil(bytes / (1024 * 1024))} MiB`;

function tooBigForDatabaseMode(ctx: DownloadContext, itemIndex: number, size: number | undefined, limit: string) {
	return new NodeOperationError(
		ctx.getNode(),
		`The file${size === undefined ? '' : ` (${mib(size)})`} is too big for n8n's "database" binary data mode`,
		{
			description:
				`This n8n keeps binary data in its database (n8n's default in queue mode), which holds at most ${limit} per file. ` +
				"To download files this big, set n8n's binary data mode to S3 (queue mode) or filesystem (a single n8n instance) with N8N_DEFAULT_BINARY_DATA_MODE, " +
				'or turn Download File off and pass the signed URL in the output (valid five minutes) to the node that needs the file.',
			itemIndex,
			failure: { cause: 'configuration-invalid' },
		},
	);
}

/** The refusal for a file of known size that n8n's binary data store cannot hold, if any. */
async function storeRefusal(ctx: DownloadContext, itemIndex: number, size: number | undefined) {
	if (size === undefined || size <= MEMORY_MODE_MAX_BYTES) return undefined;
	const mode = await binaryDataMode(ctx);
	if (mode === 'memory') return tooBigForMemoryMode(ctx, itemIndex, size);
	if (size <= DATABASE_MODE_MAX_BYTES || mode !== 'database') return undefined;
	return tooBigForDatabaseMode(ctx, itemIndex, size, '1 GiB (512 MiB unless N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE raises it)');
}

/** The limit (MiB) in n8n's own FileTooLargeError from database mode, if that is what this is. */
function databaseModeLimit(error: unknown): string | undefined {
	const message = error instanceof Error ? error.message : '';
	const limit = /max size limit of ([\d.]+) MB set for `database` mode/.exec(message)?.[1];
	if (limit) return `${limit} MiB`;
	return error instanceof Error && error.constructor.name === 'FileTooLargeError' ? 'its configured size' : undefined;
}

const header = (headers: IN8nHttpFullResponse['headers'], name: string): string | undefined => {
	const value = headers[name];
	return Array.isArray(value) ? String(value[0]) : value === undefined ? undefined : String(value);
};

function storageError(ctx: DownloadContext, itemIndex: number, message: string, description: string, status?: number) {
	return new NodeApiError(ctx.getNode(), { message, ...(status ? { status } : {}) }, {
		message,
		description,
		httpCode: status ? String(status) : undefined,
		itemIndex,
		failure: { cause: 'temporarily-unavailable' },
	});
}

/** What one storage response says about the file. */
function describeResponse(response: IN8nHttpFullResponse) {
	const contentRange = /^bytes (\d+)-\d+\/(\d+)$/.exec(header(response.headers, 'content-range') ?? '');
	const length = Number(header(response.headers, 'content-length') ?? NaN);
	return {
		/** First byte of this body within the file. */
		start: contentRange ? Number(contentRange[1]) : 0,
		/** The whole file's size: Content-Range's total is authoritative, else Content-Length. */
		total: contentRange ? Number(contentRange[2]) : Number.isFinite(length) ? length : undefined,
		resumable: response.statusCode === 206 || header(response.headers, 'accept-ranges') === 'bytes',
	};
}

export async function downloadToBinary(
	ctx: DownloadContext,
	client: GridBankClient,
	options: DownloadOptions,
): Promise<DownloadResult> {
	const { itemIndex } = options;
	const signal = client.signal;
	let signed = options.signed;
	let reissues = 0;
	const reissue = async () => {
		reissues++;
		signed = await options.reissue();
	};
	const known = await storeRefusal(ctx, itemIndex, options.expectedSize);
	if (known) throw known;
	if (signed.expiresAtMs <= Date.now()) await reissue();

	/**
	 * One GET of the signed URL from byte `from` on: retries 5xx and resets, and asks for a
	 * fresh URL when storage refuses this one (once up front; again only when a long transfer
	 * outlived its URL and is resuming).
	 */
	const open = async (from: number, refreshesAllowed: number): Promise<IN8nHttpFullResponse> => {
		for (let attempt = 0; ; ) {
			let response: IN8nHttpFullResponse;
			try {
				response = (await ctx.helpers.httpRequest({
					method: 'GET',
					url: signed.url,
					// Asking for a range makes storage state the file's true size (Content-Range).
					headers: { 'User-Agent': USER_AGENT, Range: `bytes=${from}-` },
					encoding: 'stream',
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					timeout: IDLE_TIMEOUT_MS,
					abortSignal: signal,
				})) as IN8nHttpFullResponse;
			} catch (error) {
				rethrowIfCancelled(signal, error);
				const code = networkErrorCode(error);
				if (code && attempt < options.maxRetries) {
					await sleep(backoffMs(attempt++), signal);
					continue;
				}
				throw connectionError(ctx.getNode(), code ?? 'request failed', { itemIndex, retries: attempt }, "GridBank's file storage");
			}
			const status = response.statusCode;
			if (status >= 200 && status < 300) return response;
			(response.body as Body).destroy();
			if (REFUSED.has(status) && refreshesAllowed > 0) {
				refreshesAllowed--;
				await reissue();
				continue;
			}
			if (REFUSED.has(status))
				throw storageError(
					ctx,
					itemIndex,
					`GridBank's storage refused the download link${reissues ? ' twice' : ''} (HTTP ${status})`,
					'A fresh link was requested after the first was refused, and it was refused too. Check that the n8n server clock is right, then try again.',
					status,
				);
			if (status >= 500 && attempt < options.maxRetries) {
				await sleep(backoffMs(attempt++), signal);
				continue;
			}
			throw storageError(ctx, itemIndex, `GridBank's storage could not serve the file (HTTP ${status})`, 'Try again in a few minutes.', status);
		}
	};

	for (let restart = 0; ; restart++) {
		const first = await open(0, reissues === 0 ? 1 : 0);
		const { total, resumable } = describeResponse(first);
		const refusal = total === options.expectedSize ? undefined : await storeRefusal(ctx, itemIndex, total);
		if (refusal) {
			(first.body as Body).destroy();
			throw refusal;
		}
		const { fileName, mimeType } = identifyFile({
			contentDisposition: header(first.headers, 'content-disposition'),
			contentType: header(first.headers, 'content-type'),
			url: signed.url,
			videoId: options.videoId,
		});

		/** After each response: done, or the response that resumes where this one broke. */
		let resumes = 0;
		let response = first;
		/** Bytes handed to n8n's store: counted here, as n8n 1.x's binary data has no `bytes`. */
		let passed = 0;
		const next = async ({ broke, got, received }: Ending): Promise<Body | undefined> => {
			passed = received;
			const declared = Number(header(response.headers, 'content-length') ?? NaN);
			// A body shorter than its own Content-Length is broken, even when it ended cleanly.
			if (Number.isFinite(declared) && got < declared) broke = true;
			if (!broke && (total === undefined || received === total)) return undefined;
			if (received === total) throw new TransferError(`storage announced ${declared} bytes but the body ended after ${got}`);
			if (!resumable || resumes++ >= options.maxRetries)
				throw new TransferError(`the transfer ended after ${received} of ${total ?? 'an unknown number of'} bytes`);
			if (signed.expiresAtMs <= Date.now()) await reissue();
			response = await open(received, 1);
			if (describeResponse(response).start !== received) {
				(response.body as Body).destroy();
				throw new TransferError('storage did not resume where the transfer broke');
			}
			return response.body as Body;
		};

		let binary: IBinaryData;
		try {
			const body = resumingBody(first.body as Body, { total, next, rethrowFatal: (error) => rethrowIfCancelled(signal, error) });
			binary = await ctx.helpers.prepareBinaryData(body, fileName, mimeType);
		} catch (error) {
			rethrowIfCancelled(signal, error);
			// A request error from a resume (already a NodeApiError: re-wrapping hands back the same one).
			if (error instanceof NodeApiError) throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
			const limit = databaseModeLimit(error);
			if (limit) throw tooBigForDatabaseMode(ctx, itemIndex, total, limit);
			// Nothing partial is kept: n8n's store writes to a temporary file and drops it on error.
			if (restart < options.maxRetries && !resumable) continue;
			const detail = error instanceof TransferError ? error.message : (networkErrorCode(error) ?? `stream error ${String(error)}`);
			throw storageError(
				ctx,
				itemIndex,
				'The download was cut off before the whole file arrived',
				`The transfer from GridBank's storage broke (${detail}) and could not be completed; no partial file was passed on. Try again.`,
			);
		}

		const stored = passed;
		const expected = options.expectedSize ?? total;
		if (expected !== undefined && stored !== expected)
			throw storageError(
				ctx,
				itemIndex,
				`The download is incomplete: ${stored} of ${expected} bytes arrived`,
				"The transfer from GridBank's storage ended early, so the file was not passed on. Try again.",
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
	ctx: DownloadContext,
	client: GridBankClient,
	options: { itemIndex: number; videoId: string; maxRetries: number; first: IssuedUrl; issue: () => Promise<IssuedUrl>; expectedSize?: number },
): Promise<INodeExecutionData> {
	const { itemIndex } = options;
	// A poll has no input items, so its parameters are read without an item index.
	const binaryPropertyName = requireText(
		ctx.getNode(),
		'getInputData' in ctx
			? ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data')
			: ctx.getNodeParameter('binaryPropertyName', 'data'),
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
