// NodeApiError swaps a message naming a network code (ECONNRESET, ETIMEDOUT…) or a timeout for
// n8n's generic text, which says neither what could not be reached nor how often it was tried.
// The errors built here name both in their own message: it stays.
import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

type Options = NonNullable<ConstructorParameters<typeof NodeApiError>[2]> & { message: string };

/** A NodeApiError whose message is `options.message`, whatever it names. */
export function apiErrorKeepingMessage(
	node: INode,
	response: JsonObject,
	options: Options,
): NodeApiError {
	const error = new NodeApiError(node, response, options);
	error.message = options.message;
	return error;
}
