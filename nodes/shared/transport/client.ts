// The one place that talks to GridBank's APIs: credentials, User-Agent, pacing, retries and
// error mapping. Operations ask it for a path and get parsed JSON or a NodeApiError.
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse, INode } from 'n8n-workflow';

import type { ApiProfile } from './api-profile';
import { parseBodyInSlices } from './json-in-slices';
import { type CappedText, readAnswer, tooLargeError } from './capped-body';
import { readCredential, type Credential, type GridBankContext } from './credential';
import { apiError, notJsonError, rethrowIfCancelled } from './errors';
import { requestFailure } from './network-failure';
import { askedToWaitError } from './asked-wait';
import { apiDeadline, deadlineError, withSignal } from './deadlines';
import { paceRequest } from './pacing';
import { newWaitTally, type WaitTally } from './wait-budget';
import { isRedirect, nextHop, redirectError } from './redirect';
import {
	backoffMs,
	MAX_WAIT_MS,
	networkErrorCode,
	requestedWaitMs,
	RETRYABLE_STATUSES,
	retryWaitMs,
} from './retry-policy';
import { errorExcerpt } from './error-excerpt';
import { scrubHeaders, scrubText, scrubValueInSlices } from './scrub';
import { USER_AGENT } from '../version';
import { isSuccess } from './values';
import { sleep } from './wait';

export interface GetOptions {
	qs?: IDataObject;
	itemIndex: number;
	/** The video key or id the request is about, for error messages. */
	subject?: string;
	maxRetries: number;
	/** Statuses the caller handles itself instead of failing (the list's 400 on a stale cursor). */
	passStatuses?: number[];
	/** The item's (poll's, picker search's) time in the pacer, bounded in total (wait-budget.ts). */
	waits?: WaitTally;
}

export interface ApiResponse<T> {
	status: number;
	body: T;
	headers: Record<string, string | string[] | undefined>;
}

/** API calls time out like GridBank's SDKs do. */
const TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 3;

export class GridBankClient {
	private credential?: Credential;

	constructor(
		private readonly ctx: GridBankContext,
		readonly profile: ApiProfile,
	) {}

	/** Checked once, before the first request. */
	async getCredential(itemIndex: number): Promise<Credential> {
		this.credential ??= await readCredential(this.ctx, this.profile, itemIndex);
		return this.credential;
	}

	get node(): INode {
		return this.ctx.getNode();
	}

	/** Server text (a header, a file name) with any form of the key removed; needs getCredential first. */
	scrub(text: string): string {
		return this.credential ? scrubText(text, this.credential.secrets) : text;
	}

	/** The execution's cancel signal: stopping the workflow also stops waits and downloads. */
	get signal(): AbortSignal | undefined {
		return 'getExecutionCancelSignal' in this.ctx ? this.ctx.getExecutionCancelSignal() : undefined;
	}

	async get<T>(path: string, options: GetOptions): Promise<ApiResponse<T>> {
		const { apiKey, baseUrl, secrets } = await this.getCredential(options.itemIndex);
		const request: IHttpRequestOptions = {
			method: 'GET',
			url: `${baseUrl}${this.profile.pathPrefix}${path}`,
			qs: options.qs,
			headers: { 'User-Agent': USER_AGENT, Accept: 'application/json' },
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			json: false,
			encoding: 'stream',
			timeout: TIMEOUT_MS,
			abortSignal: this.signal,
			// The key must never follow a redirect to another host: redirects are followed below.
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		};
		const node = this.ctx.getNode();
		let lastWaitMs: number | undefined;
		const firstAt = Date.now();
		let hops = 0;
		const { rateWindowMs, requestsPerWindow } = this.profile;
		const waits = options.waits ?? newWaitTally();

		for (let attempt = 0; ; attempt++) {
			const paced = requestsPerWindow
				? await paceRequest(node, options.itemIndex, apiKey, this.profile, this.signal, waits)
				: undefined;
			let response: IN8nHttpFullResponse;
			let read: CappedText;
			// n8n's timeout only bounds idle time: a server dripping bytes is cut off by this deadline.
			const deadline = apiDeadline(this.signal);
			try {
				response = (await this.ctx.helpers.httpRequestWithAuthentication.call(
					withSignal(this.ctx, deadline.signal),
					this.profile.credentialType,
					{
						...request,
						abortSignal: deadline.signal,
					},
				)) as IN8nHttpFullResponse;
				read = await readAnswer(response.body, deadline.signal, response.statusCode);
				paced?.(response.headers as ApiResponse<T>['headers']);
				deadline.done();
			} catch (error) {
				paced?.();
				deadline.done();
				rethrowIfCancelled(this.signal, error);
				if (deadline.expired()) {
					if (attempt >= options.maxRetries)
						throw deadlineError(node, deadline.seconds, attempt, options.itemIndex);
					await sleep(backoffMs(attempt), this.signal);
					continue;
				}
				// Refused, reset, timed out, DNS not answering: retried. A host that does not exist, an
				// answer that is not HTTP, or a failure without a network code: reported as what it is.
				if (!networkErrorCode(error) || attempt >= options.maxRetries)
					throw requestFailure(
						node,
						error,
						{ ...options, retries: attempt },
						{
							host: new URL(baseUrl).host,
							scrub: (text) => scrubText(text, secrets),
						},
					);
				await sleep(backoffMs(attempt), this.signal);
				continue;
			}

			const status = response.statusCode;
			const headers = scrubHeaders(response.headers as ApiResponse<T>['headers'], secrets);
			if (isRedirect(status)) {
				const hop = nextHop(request.url, headers, hops++);
				if ('refused' in hop) throw redirectError(node, status, hop, options.itemIndex);
				request.url = hop.url;
				request.qs = undefined; // the Location holds the whole address, query included
				attempt--;
				continue;
			}
			if ('tooLarge' in read) throw tooLargeError(node, status, options.itemIndex);
			const parsed = read.cut ? read.text : await parseBodyInSlices(read.text); // cut: quoted as text
			if (isSuccess(status)) {
				if (typeof parsed === 'object' && parsed !== null)
					return { status, body: (await scrubValueInSlices(parsed, secrets)) as T, headers };
				// A proxy or captive portal answering in GridBank's place: maybe passing, so retried.
				if (attempt < options.maxRetries) {
					await sleep(backoffMs(attempt), this.signal);
					continue;
				}
				throw notJsonError(node, status, { ...options, retries: attempt });
			}
			const body = errorExcerpt(parsed, secrets); // only what a message can quote, scrubbed
			if (options.passStatuses?.includes(status)) return { status, body: body as T, headers };

			if (RETRYABLE_STATUSES.has(status) && attempt < options.maxRetries) {
				// Retry-After is the wait, whatever X-RateLimit-* say; those pace later requests only.
				const wait = (lastWaitMs = retryWaitMs(status, headers, attempt, rateWindowMs));
				if (wait > MAX_WAIT_MS) throw askedToWaitError(node, status, wait, options.itemIndex);
				await sleep(wait, this.signal);
				continue;
			}
			throw apiError(
				node,
				this.profile,
				{ status, body },
				{
					...options,
					retries: attempt,
					retryAfterMs:
						status === 429
							? (requestedWaitMs(headers, Date.now(), rateWindowMs) ?? lastWaitMs)
							: undefined,
					elapsedMs: status === 429 ? Date.now() - firstAt : undefined,
				},
			);
		}
	}
}
