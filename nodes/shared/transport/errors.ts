// Every way a GridBank call can fail, turned into an error a no-code user can act on.
// Errors carry only the status, GridBank's code and message: never request options,
// headers or anything else that could hold the API key.
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import type { ApiProfile } from './api-profile';
import { readApiError } from './api-message';
import { noteCause } from './failure-cause';

export interface FailedResponse {
	status: number;
	body: unknown;
}

export interface ErrorContext {
	itemIndex: number;
	/** The video key or id the request was about. */
	subject?: string;
	retries: number;
	retryAfterMs?: number;
	/** Time from the first attempt to this answer (429: how long the retries waited). */
	elapsedMs?: number;
}

const summary = (
	status: number,
	code: string | undefined,
	message: string | undefined,
): JsonObject => {
	const out: JsonObject = { status };
	if (code) out.code = code;
	if (message) out.message = message;
	return out;
};

/** " (tried 3 times over 9 seconds)": how often and how long a rate-limited request tried. */
const triedOver = ({ retries, elapsedMs }: ErrorContext) =>
	elapsedMs === undefined
		? ''
		: ` (tried ${retries + 1} ${retries === 0 ? 'time' : 'times'} over ${Math.round(elapsedMs / 1000)} ${Math.round(elapsedMs / 1000) === 1 ? 'second' : 'seconds'})`;

function describe(
	profile: ApiProfile,
	response: FailedResponse,
	ctx: ErrorContext,
): { message: string; description: string; failure?: NodeApiError['failure'] } {
	const { status } = response;
	const info = readApiError(response.body);
	const said = info.message ? ` GridBank said: "${info.message}"` : '';
	const subject = ctx.subject ?? '';

	if (status === 401)
		return {
			message: `The ${profile.label} key is missing, malformed or revoked`,
			description: `Check the "${profile.label}" credential. If the key was revoked, create a new key in GridBank account settings and paste it into the credential.`,
			failure: { cause: 'credential-invalid' },
		};
	if (status === 403 && !profile.hasErrorEnvelope(response.body))
		return {
			message: 'GridBank blocked the request before it reached the API',
			description:
				"GridBank's edge protection refused this request (HTTP 403 without an API error). It is neither a licensing nor a key problem: retry later, and contact GridBank if it persists.",
			failure: { cause: 'temporarily-unavailable' },
		};
	if (status === 403) {
		const forbidden = profile.forbidden(info.code, subject);
		// GridBank's own words beside ours: a code the node reads one way may mean more.
		const code = info.code ? ` (code "${info.code}")` : '';
		return {
			message: forbidden.message,
			description: `${forbidden.description}${said || (code && ' GridBank said:')}${code}`,
			failure: forbidden.cause ? { cause: forbidden.cause } : undefined,
		};
	}
	if (status === 404)
		return {
			message: `No video "${subject}"`,
			description: `GridBank has no video with this id. ${profile.findVideosHint}`,
			failure: { cause: 'configuration-invalid' },
		};
	if (status === 422)
		return {
			message: `Invalid parameter: ${info.validation?.length ? info.validation.join('; ') : (info.message ?? 'GridBank rejected a parameter')}`,
			description:
				'GridBank rejected a parameter of this request. Check the values set on the node.',
			failure: { cause: 'configuration-invalid' },
		};
	if (status === 429)
		return {
			message: `Rate limit exceeded after ${ctx.retries} ${ctx.retries === 1 ? 'retry' : 'retries'}${triedOver(ctx)}`,
			description:
				'GridBank limits requests per account, not per key: other workflows and keys of the same account share the allowance. Run the workflow less often, or raise "Max Retries" in the node options.',
			failure: { cause: 'rate-limited', retryAfterMs: ctx.retryAfterMs },
		};
	if (status >= 500)
		return {
			message: `GridBank had a temporary fault (HTTP ${status})`,
			description: `The request was tried ${ctx.retries + 1} ${ctx.retries === 0 ? 'time' : 'times'}. Try again in a few minutes.${said}`,
			failure: { cause: 'temporarily-unavailable' },
		};
	return {
		message: `GridBank rejected the request (HTTP ${status})${info.message ? `: ${info.message}` : ''}`,
		description: 'Check the parameters set on the node.',
	};
}

export function apiError(
	node: INode,
	profile: ApiProfile,
	response: FailedResponse,
	ctx: ErrorContext,
): NodeApiError {
	const { message, description, failure } = describe(profile, response, ctx);
	const info = readApiError(response.body);
	const error = new NodeApiError(node, summary(response.status, info.code, info.message), {
		message,
		description,
		httpCode: String(response.status),
		itemIndex: ctx.itemIndex,
		failure,
	});
	return noteCause(error, failure);
}

// Network failures (no HTTP answer) are named in network-failure.ts.
export { connectionError } from './network-failure';

/** A success status whose body is not JSON: something other than GridBank answered. */
export function notJsonError(node: INode, status: number, ctx: ErrorContext): NodeApiError {
	return new NodeApiError(
		node,
		{ status, message: 'response body is not JSON' },
		{
			message: `GridBank answered with a page that is not JSON (HTTP ${status})`,
			description: `Something between n8n and GridBank (a proxy, firewall or captive portal) seems to have answered instead of the API; tried ${ctx.retries + 1} ${ctx.retries === 0 ? 'time' : 'times'}. Check the credential's Base URL and the network path, then try again.`,
			httpCode: String(status),
			itemIndex: ctx.itemIndex,
			failure: { cause: 'temporarily-unavailable' },
		},
	);
}

/** Bad input, caught before any request is made. */
export function inputError(
	node: INode,
	message: string,
	description: string,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(node, message, {
		description,
		itemIndex,
		failure: { cause: 'configuration-invalid' },
	});
}

/** Re-wrapping a NodeApiError returns the same object, so the item index goes on its context. */
export function atItem<E>(error: E, itemIndex: number): E {
	if (error && typeof error === 'object' && 'context' in error) {
		const context = (error as { context: Record<string, unknown> }).context;
		context.itemIndex ??= itemIndex;
	}
	return error;
}

/**
 * When n8n itself stopped the execution, its abort error goes on unchanged: n8n marks the run
 * "canceled" from it, and a cancelled run shows no error to anyone, so there is no HTTP context
 * to add. Every other failure is a NodeApiError or NodeOperationError, as the community-node
 * lint (require-node-api-error) asks.
 */
export function rethrowIfCancelled(signal: AbortSignal | undefined, error: unknown): void {
	if (signal?.aborted) throw error;
}
