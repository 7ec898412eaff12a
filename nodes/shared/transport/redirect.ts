// Redirects are followed here, not by n8n: n8n 1.x sends the Authorization header to any host
// a redirect names, and ignores the option that stops this in 2.x. So every request with the
// key goes out with redirects off, and only a redirect to the API's own origin is followed.
import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { header } from './values';

/** Enough for http → https or a moved path; a longer chain is a loop. */
export const MAX_REDIRECTS = 5;

export type Hop = { url: string } | { refused: string; host?: string };

export const isRedirect = (status: number) => status >= 300 && status < 400 && status !== 304;

/** Where a 3xx answer to `from` may be followed with the key, or why it may not. */
export function nextHop(from: string, headers: Record<string, unknown>, hops: number): Hop {
	const location = header(headers, 'location');
	if (!location) return { refused: 'without saying where to' };
	let target: URL;
	try {
		target = new URL(location, from);
	} catch {
		return { refused: 'to an address that is not a URL' };
	}
	if (target.origin !== new URL(from).origin)
		return { refused: 'to another address', host: target.host };
	if (hops >= MAX_REDIRECTS) return { refused: `more than ${MAX_REDIRECTS} times in a row` };
	return { url: target.href };
}

export function redirectError(
	node: INode,
	status: number,
	hop: Exclude<Hop, { url: string }>,
	itemIndex?: number,
): NodeApiError {
	const where = hop.host ? ` (host ${hop.host})` : '';
	return new NodeApiError(
		node,
		{ status, message: `redirect refused: ${hop.refused}` },
		{
			message: `GridBank redirected the request ${hop.refused}${where}; the key was not sent there`,
			description:
				"The API key is only ever sent to the credential's Base URL. Check that the Base URL is GridBank's own API address (https://api2.gridbank.io for production, or the staging address GridBank gave you), not a page that forwards elsewhere.",
			httpCode: String(status),
			itemIndex,
			failure: { cause: 'configuration-invalid' },
		},
	);
}
