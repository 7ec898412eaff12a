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

import type { GridBankClient } from '../transport/client';
import { markPerVideo } from './delivery-failure';
import { checkRange } from './content-range';
import { watchBodyRate } from '../transport/deadlines';
import { notAVideo, RangeIgnoredError, usableSignedUrl, WrongBytesError } from './download-checks';
import { connectionError, rethrowIfCancelled } from '../transport/errors';
import { identifyFile } from './file-name';
import { parallelBody } from './parallel-download';
import { MEMORY_MODE_MAX_BYTES, tooBigForMemoryMode } from './memory-mode';
import { type Body, type Ending, resumingBody, TransferError } from './resuming-body';
import { backoffMs, networkErrorCode } from '../transport/retry-policy';
import { requireText } from '../validate';
import { USER_AGENT } from '../version';
import { sleep } from '../transport/wait';

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
	/** Options → Parallel Connections: ranged segments over this many connections (1 = one stream). */
	parallelConnections?: number;
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
	return markPerVideo(new NodeOperationError(
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
	));
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

/** Storage answered, but not with the video: nothing is passed on. */
function wrongFileError(ctx: DownloadContext, itemIndex: number, what: string, status?: number, detail = '') {
	return storageError(
		ctx,
		itemIndex,
		`GridBank's storage ${what}`,
		`${detail}Nothing was passed on. This is a fault of GridBank's file storage (or of a proxy between n8n and it), not of the credential: try again later.`,
		status,
	);
}

function wrongBytesError(ctx: DownloadContext, itemIndex: number, verdict: { kind: string; reason: string }) {
	const detail = `${verdict.reason[0].toUpperCase()}${verdict.reason.slice(1)}. `;
	return verdict.kind === 'size'
		? wrongFileError(ctx, itemIndex, 'holds a file of another size than GridBank announced', undefined, detail)
		: wrongFileError(ctx, itemIndex, 'sent the wrong part of the file', undefined, detail);
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
	const node = ctx.getNode();
	usableSignedUrl(node, signed.url, itemIndex);
	let reissuing: Promise<void> | undefined;
	/** A fresh URL unless `stale` was already replaced; parallel segments share one reissue. */
	const reissue = (stale = signed): Promise<void> => {
		if (signed !== stale) return Promise.resolve();
		reissuing ??= (async () => {
			reissues++;
			signed = await options.reissue();
			usableSignedUrl(node, signed.url, itemIndex);
		})().finally(() => (reissuing = undefined));
		return reissuing;
	};
	let connections = options.parallelConnections ?? 1;
	const known = await storeRefusal(ctx, itemIndex, options.expectedSize);
	if (known) throw known;
	if (signed.expiresAtMs <= Date.now()) await reissue();

	/**
	 * One GET of the signed URL from byte `from` on: retries 5xx and resets, and asks for a
	 * fresh URL when storage refuses this one (once up front; again only when a long transfer
	 * outlived its URL and is resuming).
	 */
	const open = async (from: number, refreshesAllowed: number, end?: number): Promise<IN8nHttpFullResponse> => {
		for (let attempt = 0; ; ) {
			let response: IN8nHttpFullResponse;
			const used = signed;
			try {
				response = (await ctx.helpers.httpRequest({
					method: 'GET',
					url: used.url,
					// Asking for a range makes storage state the file's true size (Content-Range).
					// identity: a compressed body would be decoded by the HTTP client, and its byte counts
					// would no longer match Content-Length / Content-Range.
					headers: { 'User-Agent': USER_AGENT, Range: `bytes=${from}-${end === undefined ? '' : end - 1}`, 'Accept-Encoding': 'identity' },
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
				await reissue(used);
				continue;
			}
			if (REFUSED.has(status))
				throw markPerVideo(storageError(
					ctx,
					itemIndex,
					`GridBank's storage refused the download link${reissues ? ' twice' : ''} (HTTP ${status})`,
					'A fresh link was requested after the first was refused, and it was refused too. Check that the n8n server clock is right, then try again.',
					status,
				));
			if (status === 404)
				throw markPerVideo(
					storageError(ctx, itemIndex, "GridBank's storage has no file for this video (HTTP 404)", 'Contact GridBank support about this video.', status),
				);
			if (status >= 500 && attempt < options.maxRetries) {
				await sleep(backoffMs(attempt++), signal);
				continue;
			}
			throw storageError(ctx, itemIndex, `GridBank's storage could not serve the file (HTTP ${status})`, 'Try again in a few minutes.', status);
		}
	};

	/** Storage ignored a Range once: later breaks restart instead of resuming. */
	let rangesIgnored = false;

	/** A segment's GET (segmented-body.ts): a fresh URL first when the signed one has expired. */
	const parallelOpen = async (from: number, end: number) => {
		if (signed.expiresAtMs <= Date.now()) await reissue(signed);
		return await open(from, 1, end);
	};

	for (let restart = 0; ; restart++) {
		const first = await open(0, reissues === 0 ? 1 : 0);
		const described = describeResponse(first);
		const { total } = described;
		const resumable = described.resumable && !rangesIgnored;
		const placed = checkRange({
			status: first.statusCode,
			contentRange: header(first.headers, 'content-range'),
			from: 0,
			knownTotal: options.expectedSize,
		});
		// The size storage states (Content-Range total or Content-Length) against the API's file_size.
		const sized =
			placed.ok && total !== undefined && options.expectedSize !== undefined && total !== options.expectedSize
				? ({ ok: false, kind: 'size', reason: `storage says the file has ${total} bytes, but GridBank announced ${options.expectedSize}` } as const)
				: placed;
		const notVideo = sized.ok ? notAVideo(header(first.headers, 'content-type'), total) : undefined;
		if (!sized.ok || notVideo) {
			(first.body as Body).destroy();
			throw sized.ok ? wrongFileError(ctx, itemIndex, `sent ${notVideo}`, first.statusCode) : wrongBytesError(ctx, itemIndex, sized);
		}
		const refusal = total === options.expectedSize ? undefined : await storeRefusal(ctx, itemIndex, total);
		if (refusal) {
			(first.body as Body).destroy();
			throw refusal;
		}
		const scrubbed = (name: string) => {
			const value = header(first.headers, name);
			return value === undefined ? undefined : client.scrub(value);
		};
		const { fileName, mimeType } = identifyFile({
			contentDisposition: scrubbed('content-disposition'),
			contentType: scrubbed('content-type'),
			url: signed.url,
			videoId: options.videoId,
		});

		/** After each response: done, or the response that resumes where this one broke. */
		let resumes = 0;
		/** Why the last body was ended for being too slow, if it was. */
		let slow: string | undefined;
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
				throw new TransferError(`${slow ? `${slow}; ` : ''}the transfer ended after ${received} of ${total ?? 'an unknown number of'} bytes`);
			slow = undefined;
			if (signed.expiresAtMs <= Date.now()) await reissue();
			response = await open(received, 1);
			const resumed = checkRange({
				status: response.statusCode,
				contentRange: header(response.headers, 'content-range'),
				from: received,
				knownTotal: total,
			});
			if (!resumed.ok) {
				(response.body as Body).destroy();
				throw resumed.kind === 'ignored' ? new RangeIgnoredError(resumed.reason) : new WrongBytesError(resumed.kind, resumed.reason);
			}
			return response.body as Body;
		};

		let binary: IBinaryData;
		try {
			const rethrowFatal = (error: unknown) => rethrowIfCancelled(signal, error);
			const watch = (watched: Body) => watchBodyRate(watched, (reason) => (slow = reason));
			const parallel = parallelBody(first, { connections, maxRetries: options.maxRetries, rethrowFatal, open: parallelOpen, watch });
			const body = parallel ?? resumingBody(first.body as Body, { total, next, rethrowFatal, watch });
			binary = await ctx.helpers.prepareBinaryData(body, fileName, mimeType);
			// The segmented stream ends only once every segment arrived whole: exactly `total` bytes.
			if (parallel) passed = total ?? 0;
		} catch (error) {
			rethrowIfCancelled(signal, error);
			// A request error from a resume (already a NodeApiError: re-wrapping hands back the same one).
			if (error instanceof NodeApiError) throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
			const limit = databaseModeLimit(error);
			if (limit) throw tooBigForDatabaseMode(ctx, itemIndex, total, limit);
			// Nothing partial is kept: n8n's store writes to a temporary file and drops it on error.
			if (error instanceof WrongBytesError) throw wrongBytesError(ctx, itemIndex, { kind: error.kind, reason: error.message });
			if (error instanceof RangeIgnoredError) {
				rangesIgnored = true;
				// Parallel segments need ranges: the whole file again as one stream (a change of mode, not a retry).
				if (connections > 1) {
					connections = 1;
					continue;
				}
			}
			if (restart < options.maxRetries && (!resumable || error instanceof RangeIgnoredError)) continue;
			const detail = error instanceof TransferError ? error.message : (networkErrorCode(error) ?? `stream error ${String(error)}`);
			throw storageError(
				ctx,
				itemIndex,
				'The download was cut off before the whole file arrived',
				`The transfer from GridBank's storage broke (${detail}) and could not be completed; no partial file was passed on. Try again.`,
			);
		}

		const stored = passed;
		if (stored === 0) throw wrongFileError(ctx, itemIndex, 'sent an empty file', first.statusCode);
		const expected = options.expectedSize ?? total;
		if (expected !== undefined && stored > expected)
			throw storageError(
				ctx,
				itemIndex,
				`The file is larger than announced: ${stored} bytes arrived, ${expected} expected`,
				"GridBank's storage sent more bytes than the file's announced size, so the file was not passed on. Try again; if it persists, contact GridBank.",
			);
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
	options: {
		itemIndex: number;
		videoId: string;
		maxRetries: number;
		first: IssuedUrl;
		issue: () => Promise<IssuedUrl>;
		expectedSize?: number;
		parallelConnections?: number;
	},
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
		parallelConnections: options.parallelConnections,
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
