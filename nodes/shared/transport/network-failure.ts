// A request that got no HTTP answer, named for what happened. A network code becomes words a
// user can act on (refused, host name not found, reset, timed out); an answer that is not HTTP,
// or a failure without any network code, is never called a connection failure. The underlying
// error is not kept: it holds the request's headers, the key among them.
import type { INode, NodeApiError } from 'n8n-workflow';

import { apiErrorKeepingMessage } from './kept-message';
import { finalNetworkErrorCode, networkErrorCode } from './retry-policy';

interface FailureContext {
	itemIndex: number;
	retries: number;
}

const WORDS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be looked up (DNS did not answer)',
	ECONNRESET: 'the connection was reset',
	EPIPE: 'the connection was reset',
	UND_ERR_SOCKET: 'the connection was reset',
	ETIMEDOUT: 'the connection timed out',
	// axios' code for its own timeout.
	ECONNABORTED: 'the connection timed out',
};

const tried = (ctx: FailureContext) =>
	`The request was tried ${ctx.retries + 1} ${ctx.retries === 0 ? 'time' : 'times'}.`;

function apiError(
	node: INode,
	message: string,
	description: string,
	ctx: FailureContext,
	code: string,
) {
	return apiErrorKeepingMessage(
		node,
		{ code, message },
		{
			message,
			description,
			itemIndex: ctx.itemIndex,
			failure: { cause: 'temporarily-unavailable' },
		},
	);
}

/** A network failure (refused, reset, timeout, DNS) after retries, or a host name that does not exist at once. */
export function connectionError(
	node: INode,
	code: string,
	ctx: FailureContext,
	what = 'GridBank',
	host?: string,
): NodeApiError {
	const message = `Could not reach ${what}: ${WORDS[code] ?? 'the connection failed'} (${code})`;
	const api = what === 'GridBank';
	const check =
		code === 'ENOTFOUND'
			? api
				? `There is no host named ${host ? `"${host}"` : 'as in the Base URL'}: check the credential's Base URL (https://api2.gridbank.io, or the staging address GridBank gave you).`
				: `Its host name does not resolve from n8n: check n8n's DNS and proxy settings.`
			: api
				? "Check that the credential's Base URL is right and that n8n can reach it, then try again."
				: `Check that n8n can reach ${what} (proxies, firewall), then try again.`;
	return apiError(node, message, `${tried(ctx)} ${check}`, ctx, code);
}

/** The parser's code when the answer was not HTTP at all (HPE_…), walking n8n's and axios' wrappers. */
function parserCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const { code, message } = current as { code?: unknown; message?: unknown };
		if (typeof code === 'string' && code.startsWith('HPE_')) return code;
		// n8n 1.x keeps only the parser's message.
		if (typeof message === 'string' && /^Parse Error\b/.test(message)) return 'parse error';
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** The innermost message of a wrapped error, for a failure nothing else names. */
function innermostMessage(error: unknown): string {
	let message = '';
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const text = (current as { message?: unknown }).message;
		if (typeof text === 'string' && text.trim()) message = text.trim();
		current = (current as { cause?: unknown }).cause;
	}
	return message.slice(0, 200) || 'no reason given';
}

/**
 * The error for a request that failed without an answer and will not be retried: the network
 * code's words, a non-HTTP answer, or the failure's own (scrubbed) reason.
 */
export function requestFailure(
	node: INode,
	error: unknown,
	ctx: FailureContext,
	options: { what?: string; host?: string; scrub: (text: string) => string },
): NodeApiError {
	const what = options.what ?? 'GridBank';
	const code = networkErrorCode(error) ?? finalNetworkErrorCode(error);
	if (code) return connectionError(node, code, ctx, what, options.host);
	const where = what === 'GridBank' ? "the credential's Base URL" : 'the signed URL';
	const parser = parserCode(error);
	if (parser)
		return apiError(
			node,
			`${what === 'GridBank' ? "GridBank's address" : what} answered with something that is not HTTP (${parser})`,
			`${tried(ctx)} Another kind of service seems to listen there: check ${where} (its port, and https versus http).`,
			ctx,
			parser,
		);
	return apiError(
		node,
		`The request to ${what} failed before any answer: ${options.scrub(innermostMessage(error))}`,
		`${tried(ctx)} It was not a network failure n8n could name. Check ${where} and n8n's proxy settings, then try again.`,
		ctx,
		'request failed',
	);
}
