// Signed URL → n8n binary data, streamed into prepareBinaryData (memory flat in filesystem and S3
// modes); breaks resume by Range (resuming-body.ts), or the file comes in parallel-download.ts.
import { type IBinaryData, type JsonObject, NodeApiError } from 'n8n-workflow';

import type { ItemContext } from '../item-context';
import { watchBodyRate } from '../transport/deadlines';
import { rethrowIfCancelled } from '../transport/errors';
import { networkErrorCode } from '../transport/retry-policy';
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
import type { StoreBody } from './store-body';
import { type Ending, resumingBody } from './resuming-body';
import type { SignedUrl } from './signed-url';
import { storageError, storedSizeError, wrongBytesError } from './storage-errors';
import { describeResponse, header, StorageLink } from './storage-link';
import type { TransferWaits } from './transfer-waits';

export interface DownloadOptions<T = IBinaryData> {
	videoId: string;
	/** The URL already issued for this item. */
	signed: SignedUrl;
	/** Asks GridBank for a fresh URL (no charge; used once when the first is expired or refused). */
	reissue: () => Promise<SignedUrl>;
	/** Size the API announced (Enterprise file_size), checked against what was stored. */
	expectedSize?: number;
	parallelConnections?: number; // ranged segments over this many connections (1: one stream)
	windowBytes?: number; // what may wait for the store (segment-plan.ts; default WINDOW_BYTES)
	waits?: TransferWaits; // the transfer's total wait on storage (a copy shares it); else its own
	store?: StoreBody<T>; // instead of n8n's binary data: the copy to storage (store-body.ts)
}

export interface DownloadResult<T = IBinaryData> {
	signed: SignedUrl;
	binary: T;
	fileName: string;
	mimeType: string;
	fileSize: number;
}

export async function downloadToBinary<T = IBinaryData>(
	item: ItemContext,
	options: DownloadOptions<T>,
): Promise<DownloadResult<T>> {
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

	for (let restart = 0; ; restart++) {
		const first = await link.open(0, link.reissues === 0 ? 1 : 0);
		const described = describeResponse(first);
		const { total } = described;
		const resumable = described.resumable && !rangesIgnored;
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
			});
			const body =
				parallel ?? resumingBody(first.body as Body, { total, next, rethrowFatal, watch });
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
			let detail =
				error instanceof TransferError
					? error.message
					: (networkErrorCode(error) ?? `stream error ${String(error)}`);
			// A segment cut for being too slow says so too (the single stream's message already does).
			if (slow && !detail.includes(slow)) detail = `${slow}; ${detail}`;
			throw storageError(
				item,
				'The download was cut off before the whole file arrived',
				`The transfer from GridBank's storage broke (${detail}) and could not be completed; no partial file was passed on. Try again.`,
			);
		}

		if (options.store) return { signed: link.signed, binary, fileName, mimeType, fileSize: passed };
		const sizeError = storedSizeError(
			item,
			passed,
			options.expectedSize ?? total,
			first.statusCode,
		);
		if (sizeError) throw sizeError;
		return { signed: link.signed, binary, fileName, mimeType, fileSize: passed };
	}
}
