// The one place that talks to GridBank's APIs: credentials, User-Agent, pacing, retries and
// error mapping. Operations ask it for a path and get parsed JSON or a NodeApiError.
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';

import type { ApiProfile } from './api-profiles';
import { parseBody } from './api-message';
import { apiError, connectionError, inputError, notJsonError, rethrowIfCancelled } from './errors';
import { pace } from './pacing';
import { backoffMs, MAX_WAIT_MS, networkErrorCode, requestedWaitMs, RETRYABLE_STATUSES } from './retry-policy';
import { USER_AGENT } from './version';
import { sleep } from './wait';

export type GridBankContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface GetOptions {
	qs?: IDataObject;
	itemIndex: number;
	/** The video key or id the request is about, for error messages. */
	subject?: string;
	maxRetries: number;
	/** Statuses the caller handles itself instead of failing (the list's 400 on a stale cursor). */
	passStatuses?: number[];
}

export interface ApiResponse<T> {
	status: number;
	body: T;
	headers: Record<string, string | string[] | undefined>;
}

/** API calls time out like GridBank's SDKs do. */
const TIMEOUT_MS = 30_000;

export const DEFAULT_MAX_RETRIES = 3;

interface Credential {
	apiKey: string;
	baseUrl: string;
}

export class GridBankClient {
	private credential?: Credential;

	constructor(
		private readonly ctx: GridBankContext,
		readonly profile: ApiProfile,
	) {}

	/** The credential, checked before the first request so a bad key never goes out. */
	async getCredential(itemIndex: number): Promise<Credential> {
		if (this.credential) return this.credential;
		const raw = await this.ctx.getCredentials(this.profile.credentialType, itemIndex);
		const apiKey = String(raw.apiKey ?? '').trim();
		const baseUrl = String(raw.baseUrl ?? '').trim().replace(/\/+$/, '');
		const node = this.ctx.getNode();
		if (!apiKey)
			throw inputError(node, `The ${this.profile.label} key is empty`, 'Paste your GridBank API key into the credential.', itemIndex);
		if (this.profile.keyPattern && !this.profile.keyPattern.test(apiKey))
			throw inputError(
				node,
				`The ${this.profile.label} key is not in GridBank's format`,
				`A Partner key looks like ${this.profile.keyFormatHint}. Copy the whole key from GridBank account settings into the credential.`,
				itemIndex,
			);
		if (!/^https?:\/\/[^\s/]+/.test(baseUrl))
			throw inputError(
				node,
				'The credential\'s Base URL is not a valid http(s) URL',
				'Use https://api2.gridbank.io for production, or the staging address GridBank gave you.',
				itemIndex,
			);
		this.credential = { apiKey, baseUrl };
		return this.credential;
	}

	/** The execution's cancel signal: stopping the workflow also stops waits and downloads. */
	get signal(): AbortSignal | undefined {
		return 'getExecutionCancelSignal' in this.ctx ? this.ctx.getExecutionCancelSignal() : undefined;
	}

	async get<T>(path: string, options: GetOptions): Promise<ApiResponse<T>> {
		const { apiKey, baseUrl } = await this.getCredential(options.itemIndex);
		const request: IHttpRequestOptions = {
			method: 'GET',
			url: `${baseUrl}${this.profile.pathPrefix}${path}`,
			qs: options.qs,
			headers: { 'User-Agent': USER_AGENT, Accept: 'application/json' },
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			json: false,
			encoding: 'text',
			timeout: TIMEOUT_MS,
			abortSignal: this.signal,
			// The key must never follow a redirect to another host.
			sendCredentialsOnCrossOriginRedirect: false,
		};
		const node = this.ctx.getNode();
		let lastWaitMs: number | undefined;

		for (let attempt = 0; ; attempt++) {
			const paced = this.profile.requestsPerMinute ? await pace(apiKey, this.profile.requestsPerMinute, this.signal) : undefined;
			let response: IN8nHttpFullResponse;
			try {
				response = (await this.ctx.helpers.httpRequestWithAuthentication.call(
					this.ctx,
					this.profile.credentialType,
					request,
				)) as IN8nHttpFullResponse;
				paced?.();
			} catch (error) {
				paced?.();
				rethrowIfCancelled(this.signal, error);
				const code = networkErrorCode(error);
				if (!code) throw connectionError(node, 'request failed', { ...options, retries: attempt });
				if (attempt >= options.maxRetries) throw connectionError(node, code, { ...options, retries: attempt });
				await sleep(backoffMs(attempt), this.signal);
				continue;
			}

			const status = response.statusCode;
			const headers = response.headers as ApiResponse<T>['headers'];
			const body = parseBody(response.body);
			if (status >= 200 && status < 300) {
				if (typeof body === 'object' && body !== null) return { status, body: body as T, headers };
				// A proxy or captive portal answering in GridBank's place: maybe passing, so retried.
				if (attempt < options.maxRetries) {
					await sleep(backoffMs(attempt), this.signal);
					continue;
				}
				throw notJsonError(node, status, { ...options, retries: attempt });
			}
			if (options.passStatuses?.includes(status)) return { status, body: body as T, headers };

			if (RETRYABLE_STATUSES.has(status) && attempt < options.maxRetries) {
				const asked = status === 429 ? requestedWaitMs(headers) : undefined;
				const wait = asked ?? backoffMs(attempt);
				lastWaitMs = wait;
				if (wait <= MAX_WAIT_MS) {
					await sleep(wait, this.signal);
					continue;
				}
			}
			throw apiError(node, this.profile, { status, body }, {
				...options,
				retries: attempt,
				retryAfterMs: status === 429 ? (requestedWaitMs(headers) ?? lastWaitMs) : undefined,
			});
		}
	}
}
