// One download's signed URL and the GETs made with it: a fresh URL when storage refuses or the
// URL has expired (shared by parallel segments: one reissue for all), retries of 429, 5xx and resets.
// Storage is fetched with the plain helper: the API key must never reach it, not even through
// a redirect.
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import type { ItemContext } from '../item-context';
import { rethrowIfCancelled } from '../transport/errors';
import { requestFailure } from '../transport/network-failure';
import { backoffMs, networkErrorCode } from '../transport/retry-policy';
import { sleep } from '../transport/wait';
import { USER_AGENT } from '../version';
import { markPerVideo } from './delivery-failure';
import { usableSignedUrl } from './download-checks';
import type { Body } from '../transport/body-stream';
import { discard } from './let-go';
import type { SignedUrl } from './signed-url';
import { storageError } from './storage-errors';
import { storageBusyError, storageRetryWait } from './storage-waits';
import { header, isSuccess } from '../transport/values';
import { TransferWaits } from './transfer-waits';

/** Statuses with which S3-style storage refuses an expired or otherwise invalid signature. */
const REFUSED = new Set([400, 401, 403, 410]);
/** Idle socket time after which a stalled transfer fails instead of hanging the execution. */
const IDLE_TIMEOUT_MS = 60_000;

/** What one storage response says about the file. */
export function describeResponse(response: IN8nHttpFullResponse) {
	const contentRange = /^bytes (\d+)-\d+\/(\d+)$/.exec(
		header(response.headers, 'content-range') ?? '',
	);
	const length = Number(header(response.headers, 'content-length') ?? NaN);
	return {
		/** First byte of this body within the file. */
		start: contentRange ? Number(contentRange[1]) : 0,
		/** The whole file's size: Content-Range's total is authoritative, else Content-Length. */
		total: contentRange ? Number(contentRange[2]) : Number.isFinite(length) ? length : undefined,
		resumable: response.statusCode === 206 || header(response.headers, 'accept-ranges') === 'bytes',
	};
}

export class StorageLink {
	/** How many fresh URLs were asked for. */
	reissues = 0;
	/** The version ranged GETs are tied to (If-Range), from the first answer (object-version.ts). */
	ifRange: string | undefined;
	private reissuing: Promise<void> | undefined;
	/**
	 * A fresh URL already past its expiry on arrival: the clocks disagree (no Date header to read
	 * its lifetime from), so storage's refusal decides from then on: one reissue, not one per segment.
	 */
	private clocksDisagree = false;

	constructor(
		private readonly item: ItemContext,
		public signed: SignedUrl,
		private readonly issueFresh: () => Promise<SignedUrl>,
		/** The transfer's total wait on storage, shared by every GET made here (and by its caller). */
		readonly waits = new TransferWaits(),
	) {
		usableSignedUrl(item, signed.url);
	}

	get expired(): boolean {
		return !this.clocksDisagree && this.signed.expiresAtMs <= Date.now();
	}

	/** A fresh URL unless `stale` was already replaced; parallel segments share one reissue. */
	reissue(stale = this.signed): Promise<void> {
		if (this.signed !== stale) return Promise.resolve();
		this.reissuing ??= (async () => {
			this.reissues++;
			this.signed = await this.issueFresh();
			usableSignedUrl(this.item, this.signed.url);
			if (this.signed.expiresAtMs <= Date.now()) this.clocksDisagree = true;
		})().finally(() => (this.reissuing = undefined));
		return this.reissuing;
	}

	/** A segment's GET (segmented-body.ts): a fresh URL first when the signed one has expired. */
	readonly openSegment = async (from: number, end: number) => {
		if (this.expired) await this.reissue(this.signed);
		return await this.open(from, 1, end);
	};

	/**
	 * One GET of the signed URL from byte `from` on: retries 5xx and resets, and asks for a
	 * fresh URL when storage refuses this one (once up front; again only when a long transfer
	 * outlived its URL and is resuming).
	 */
	async open(from: number, refreshesAllowed: number, end?: number): Promise<IN8nHttpFullResponse> {
		const { ctx, client, itemIndex, maxRetries } = this.item;
		const signal = client.signal;
		for (let attempt = 0; ; ) {
			let response: IN8nHttpFullResponse;
			const used = this.signed;
			try {
				response = (await ctx.helpers.httpRequest({
					method: 'GET',
					url: used.url,
					// Asking for a range makes storage state the file's true size (Content-Range).
					// identity: a compressed body would be decoded by the HTTP client, and its byte counts
					// would no longer match Content-Length / Content-Range.
					headers: {
						'User-Agent': USER_AGENT,
						Range: `bytes=${from}-${end === undefined ? '' : end - 1}`,
						'Accept-Encoding': 'identity',
						// Another version is then sent whole (200) rather than as a part to stitch in.
						...(from > 0 && this.ifRange ? { 'If-Range': this.ifRange } : {}),
					},
					encoding: 'stream',
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					timeout: IDLE_TIMEOUT_MS,
					abortSignal: signal,
				})) as IN8nHttpFullResponse;
			} catch (error) {
				rethrowIfCancelled(signal, error);
				const code = networkErrorCode(error);
				if (code && attempt < maxRetries) {
					await sleep(backoffMs(attempt++), signal);
					continue;
				}
				throw requestFailure(
					ctx.getNode(),
					error,
					{ itemIndex, retries: attempt },
					{ what: "GridBank's file storage", scrub: (text) => client.scrub(text) },
				);
			}
			const status = response.statusCode;
			if (isSuccess(status)) return response;
			discard(response.body as Body);
			if (REFUSED.has(status) && refreshesAllowed > 0) {
				refreshesAllowed--;
				await this.reissue(used);
				continue;
			}
			if (REFUSED.has(status))
				throw markPerVideo(
					storageError(
						this.item,
						`GridBank's storage refused the download link${this.reissues ? ' twice' : ''} (HTTP ${status})`,
						'A fresh link was requested after the first was refused, and it was refused too. Check that the n8n server clock is right, then try again.',
						status,
					),
				);
			if (status === 404)
				throw markPerVideo(
					storageError(
						this.item,
						"GridBank's storage has no file for this video (HTTP 404)",
						'Contact GridBank support about this video.',
						status,
					),
				);
			// Not even byte 0 exists: the master is empty, which no retry changes.
			if (status === 416 && from === 0)
				throw markPerVideo(
					storageError(
						this.item,
						"GridBank's storage holds an empty file for this video (HTTP 416)",
						'The master file of this video has no bytes. Contact GridBank support about this video.',
						status,
					),
				);
			const wait = storageRetryWait(this.item, response, attempt, maxRetries, this.waits);
			if (wait !== undefined) {
				attempt++;
				await sleep(wait, signal);
				continue;
			}
			if (status === 429) throw storageBusyError(this.item, attempt);
			throw storageError(
				this.item,
				`GridBank's storage could not serve the file (HTTP ${status})`,
				'Try again in a few minutes.',
				status,
			);
		}
	}
}
