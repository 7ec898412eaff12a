// One S3 request of a copy, through n8n's httpRequestWithAuthentication with the storage
// credential (it signs; nodes/shared/transport/sigv4.ts). 5xx, 429, 503 SlowDown (waiting what
// Retry-After asks), resets and stalls are retried, each up to Max Retries times, and every wait
// of the copy, its GridBank reads' and its uploads' together, comes out of one TransferWaits
// budget (nodes/shared/download/transfer-waits.ts). Redirects are never followed.
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import type { TransferWaits } from '../download/transfer-waits';
import type { ItemContext } from '../item-context';
import { readCapped } from '../transport/capped-body';
import { apiDeadline, withSignal } from '../transport/deadlines';
import { rethrowIfCancelled } from '../transport/errors';
import { backoffMs, networkErrorCode, retryAfterMs } from '../transport/retry-policy';
import type { StorageEndpoint } from '../transport/s3-address';
import { header } from '../transport/values';
import { sleep } from '../transport/wait';
import { s3Error } from './s3-errors';

export const STORAGE_CREDENTIAL = 'gridBankS3StorageApi';
/** An S3 answer is a short XML document: more is not read. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** A request may take 60 s plus its body at 64 KiB/s (8 MiB: 188 s) before it counts as stalled. */
const requestDeadlineMs = (bytes: number) => 60_000 + Math.ceil(bytes / 64);

export interface StorageTarget extends StorageEndpoint {
	bucket: string;
	key: string;
	/** Removes the storage secret and the GridBank key from server text. */
	scrub: (text: string) => string;
}

export interface CopyRun {
	item: ItemContext;
	target: StorageTarget;
	/** The copy's one wait budget, shared with its reads from GridBank's storage. */
	waits: TransferWaits;
}

export interface S3Request {
	op: string;
	method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE';
	url: URL;
	headers?: Record<string, string>;
	body?: Buffer | string;
}

export interface S3Answer {
	status: number;
	headers: Record<string, unknown>;
	text: string;
}

const RETRIED = new Set([429, 500, 502, 503, 504]);

/** The answer (any status but a retried one that ran out: that is an error) or the error. */
export async function s3Send(
	run: CopyRun,
	request: S3Request,
	signal?: AbortSignal,
): Promise<S3Answer> {
	const { item, target } = run;
	const cancel = signal ?? item.client.signal;
	const fail = (status: number | undefined, text: string) =>
		s3Error(item, {
			op: request.op,
			status,
			text,
			bucket: target.bucket,
			key: target.key,
			scrub: target.scrub,
		});
	const size = request.body === undefined ? 0 : Buffer.byteLength(request.body);
	for (let attempt = 0; ; attempt++) {
		const deadline = apiDeadline(cancel, requestDeadlineMs(size));
		let waitMs: number | undefined;
		let failure: { status?: number; text: string };
		try {
			const response = (await item.ctx.helpers.httpRequestWithAuthentication.call(
				withSignal(item.ctx, deadline.signal),
				STORAGE_CREDENTIAL,
				{
					method: request.method,
					url: request.url.toString(),
					headers: request.headers,
					body: request.body,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					json: false,
					encoding: 'stream',
					timeout: 60_000,
					abortSignal: deadline.signal,
					disableFollowRedirect: true,
				},
			)) as IN8nHttpFullResponse;
			const read =
				request.method === 'HEAD'
					? { text: '' }
					: await readCapped(response.body, deadline.signal, MAX_ANSWER_BYTES);
			deadline.done();
			const text = 'text' in read ? read.text : '';
			const answer = { status: response.statusCode, headers: response.headers, text };
			if (!RETRIED.has(answer.status)) return answer;
			failure = { status: answer.status, text };
			waitMs = retryAfterMs(header(answer.headers, 'retry-after'));
		} catch (error) {
			const expired = deadline.expired();
			deadline.done();
			rethrowIfCancelled(cancel, error);
			const code = expired ? 'stalled' : networkErrorCode(error);
			if (!code)
				throw fail(undefined, target.scrub(error instanceof Error ? error.message : String(error)));
			failure = { text: code };
		}
		const wait = waitMs ?? backoffMs(attempt);
		if (attempt >= item.maxRetries) throw fail(failure.status, failure.text);
		// Past the budget: "kept asking to wait" when it asked (429/503), else its own error.
		if (failure.status === 429 || failure.status === 503)
			run.waits.take(item, wait, failure.status, 'Your storage bucket');
		else if (run.waits.waitedMs + wait > run.waits.budgetMs)
			throw fail(failure.status, failure.text);
		else run.waits.take(item, wait, failure.status ?? 0);
		await sleep(wait, cancel);
	}
}
