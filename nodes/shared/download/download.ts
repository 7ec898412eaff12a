// Signed URL → n8n binary data, streamed into prepareBinaryData (memory flat in filesystem and S3
// modes); breaks resume by Range (resuming-body.ts), or the file comes in parallel-download.ts.
import { type IBinaryData, type JsonObject, NodeApiError } from 'n8n-workflow';

import type { ItemContext } from '../item-context';
import { watchBodyRate } from '../transport/deadlines';
import { rethrowIfCancelled } from '../transport/errors';
import { databaseModeLimit, storeRefusal, tooBigForDatabaseMode } from './binary-store';
import { checkFirstResponse } from './first-response';
import { checkRange } from './content-range';
import { RangeIgnoredError, WrongBytesError } from './download-checks';
import { identifyFile } from './file-name';
import {
	ifRangeOf,
	sameVersion,
	VersionChangedError,
	versionChangedError,
	versionOf,
} from './object-version';
import { sizeBeyondCeiling } from './size-ceiling';
import { parallelBody } from './parallel-download';
import { type Body, TransferError } from '../transport/body-stream';
import { discard } from './let-go';
import type { DownloadOptions, DownloadResult } from './download-options';
import { type Ending, resumingBody } from './resuming-body';
import { brokenTransferError, storedSizeError, wrongBytesError } from './storage-errors';
import { describeResponse, StorageLink } from './storage-link';
import { header } from '../transport/values';
import { contentCheckOf } from './content-check';
import {
	ContentMismatchError,
	contentMismatchError,
	transferFigures,
	TransferMeter,
} from './transfer-meter';
import { progressFor, type TransferProgress } from './transfer-progress';

export type { DownloadOptions, DownloadResult } from './download-options';

/** The download, with its progress in n8n's log (transfer-progress.ts) and its figures. */
export async function downloadToBinary<T = IBinaryData>(
	item: ItemContext,
	options: DownloadOptions<T>,
): Promise<DownloadResult<T>> {
	const progress = progressFor(item, options.videoId, options.store ? 'copy' : 'download');
	let result: DownloadResult<T> | undefined;
	try {
		result = await transfer(item, options, progress);
	} finally {
		if (!result) progress.failed();
	}
	progress.done({ ...result.transfer, sha256: result.sha256 });
	return result;
}

async function transfer<T>(
	item: ItemContext,
	options: DownloadOptions<T>,
	progress: TransferProgress,
): Promise<DownloadResult<T>> {
	const startedAt = Date.now();
	const { ctx, client, maxRetries } = item;
	const signal = client.signal;
	const link = new StorageLink(item, options.signed, options.reissue, options.waits);
	let connections = options.parallelConnections ?? 1;
	const known =
		sizeBeyondCeiling(item, [options.expectedSize], 'api') ??
		(options.store ? undefined : await storeRefusal(item, options.expectedSize));
	if (known) throw known;
	if (link.expired) await link.reissue();

	/** Storage ignored a Range once: later breaks restart instead of resuming. */
	let rangesIgnored = false;
	/** The file was replaced by another version mid-download: it restarts once, then fails. */
	let versionChanges = 0;
	const counts = { resumes: 0, handedOver: 0 };

	for (let restart = 0; ; restart++) {
		const first = await link.open(0, link.reissues === 0 ? 1 : 0);
		const described = describeResponse(first);
		const { total } = described;
		const resumable = described.resumable && !rangesIgnored;
		const check = contentCheckOf(first.headers);
		const meter = new TransferMeter(check, progress, !options.store, counts);
		await checkFirstResponse(item, first, total, options.expectedSize, !options.store);
		// Every later answer must be this version of the file.
		const version = versionOf(first.headers);
		link.ifRange = ifRangeOf(version);
		const scrubbed = (name: string) => {
			const value = header(first.headers, name);
			return value === undefined ? undefined : client.scrub(value);
		};
		const { fileName, mimeType } = identifyFile({
			contentDisposition: scrubbed('content-disposition'),
			contentType: scrubbed('content-type'),
			url: link.signed.url,
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
			if (received === total)
				throw new TransferError(
					`storage announced ${declared} bytes but the body ended after ${got}`,
				);
			if (!resumable || resumes++ >= maxRetries)
				throw new TransferError(
					`${slow ? `${slow}; ` : ''}the transfer ended after ${received} of ${total ?? 'an unknown number of'} bytes`,
				);
			slow = undefined;
			if (link.expired) await link.reissue();
			response = sameVersion(version, await link.open(received, 1));
			const resumed = checkRange({
				status: response.statusCode,
				contentRange: header(response.headers, 'content-range'),
				from: received,
				knownTotal: total,
			});
			if (!resumed.ok) {
				discard(response.body as Body);
				throw resumed.kind === 'ignored'
					? new RangeIgnoredError(resumed.reason)
					: new WrongBytesError(resumed.kind, resumed.reason);
			}
			return response.body as Body;
		};

		let binary: T;
		try {
			const rethrowFatal = (error: unknown) => rethrowIfCancelled(signal, error);
			const watch = (watched: Body, cut: (error: Error) => void) =>
				watchBodyRate(watched, cut, (reason) => (slow = reason));
			const parallel = parallelBody(first, {
				connections,
				windowBytes: options.windowBytes,
				maxRetries: maxRetries,
				rethrowFatal,
				open: async (from, end) => sameVersion(version, await link.openSegment(from, end)),
				watch,
				meter,
			});
			progress.begin(total, meter.connections);
			const body =
				parallel ?? resumingBody(first.body as Body, { total, next, rethrowFatal, watch, meter });
			binary = options.store
				? await options.store(body, { fileName, mimeType, size: options.expectedSize ?? total })
				: ((await ctx.helpers.prepareBinaryData(body, fileName, mimeType)) as T);
			// The segmented stream ends only once every segment arrived whole: exactly `total` bytes.
			if (parallel) passed = total ?? 0;
		} catch (error) {
			rethrowIfCancelled(signal, error);
			// A request error from a resume (already a NodeApiError: re-wrapping hands back the same one).
			if (error instanceof NodeApiError)
				throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
			const limit = databaseModeLimit(error);
			if (limit) throw tooBigForDatabaseMode(item, total, limit);
			// Nothing partial is kept: n8n's store writes to a temporary file and drops it on error.
			if (error instanceof VersionChangedError) {
				if (versionChanges++ === 0) continue;
				throw versionChangedError(item, error.message);
			}
			if (error instanceof ContentMismatchError) throw contentMismatchError(item, error);
			if (error instanceof WrongBytesError)
				throw wrongBytesError(item, { kind: error.kind, reason: error.message });
			if (error instanceof RangeIgnoredError) {
				rangesIgnored = true;
				// Parallel segments need ranges: the whole file again as one stream (a change of mode, not a retry).
				if (connections > 1) {
					connections = 1;
					continue;
				}
			}
			if (restart < maxRetries && (!resumable || error instanceof RangeIgnoredError)) continue;
			throw brokenTransferError(item, error, slow);
		}

		const sizeError =
			!options.store &&
			storedSizeError(item, passed, options.expectedSize ?? total, first.statusCode);
		if (sizeError) throw sizeError;
		const figures = transferFigures(meter, { startedAt, restarts: restart, waits: link.waits });
		return { signed: link.signed, binary, fileName, mimeType, fileSize: passed, ...figures };
	}
}
