// API answers are read from n8n's response stream with a byte cap instead of being buffered
// whole: a page of 100 videos is tens of KiB, so an answer past the cap is not GridBank's API
// (a proxy, a gateway, an answer that never ends) and is cut off where it crosses the cap.
import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { mib } from './values';

/** n8n's response stream, as read here (named without importing node:stream). */
interface Body {
	on(event: string, listener: (...args: never[]) => void): unknown;
	removeListener(event: string, listener: (...args: never[]) => void): unknown;
	resume(): unknown;
	destroy(): unknown;
}

/** The most an API answer may hold, far above the largest real page (docs/gridbank-api.md#both-apis). */
export const MAX_API_BODY_BYTES = 8 * 1024 * 1024;

/** The answer's text, or how far it got before it crossed the cap. */
export type CappedText = { text: string } | { tooLarge: number };

const isStream = (body: unknown): body is Body =>
	typeof body === 'object' && body !== null && typeof (body as Body).on === 'function';

/** Reads `body` (n8n's response stream; text or a Buffer on a path that buffered it) up to `cap` bytes; `signal` (the attempt's deadline) ends the read. */
export async function readCapped(
	body: unknown,
	signal: AbortSignal,
	cap = MAX_API_BODY_BYTES,
): Promise<CappedText> {
	if (!isStream(body)) {
		const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : '');
		return bytes.length > cap ? { tooLarge: bytes.length } : { text: bytes.toString('utf8') };
	}
	return await new Promise<CappedText>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const listeners: Array<[string, (...args: never[]) => void]> = [];
		const settle = (done: () => void, stop = false) => {
			signal.removeEventListener('abort', onAbort);
			for (const [event, listener] of listeners) body.removeListener(event, listener);
			if (stop) {
				// Destroying can still emit an error; with no listener it would crash the process.
				body.on('error', () => undefined);
				body.destroy();
			}
			done();
		};
		const onData = (chunk: Buffer | string) => {
			const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			size += bytes.length;
			if (size > cap) return settle(() => resolve({ tooLarge: size }), true);
			chunks.push(bytes);
		};
		const onEnd = () => settle(() => resolve({ text: Buffer.concat(chunks).toString('utf8') }));
		const onError = (error: Error) => settle(() => reject(error), true);
		// A body that closes before its end lost its connection: retried like a reset.
		const onClose = () =>
			settle(() => reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
		const onAbort = () => settle(() => reject(new Error('aborted by the deadline')), true);
		listeners.push(['data', onData], ['end', onEnd], ['error', onError], ['close', onClose]);
		for (const [event, listener] of listeners) body.on(event, listener);
		if (signal.aborted) onAbort();
		else signal.addEventListener('abort', onAbort, { once: true });
		body.resume();
	});
}

/** The item's error when an answer crossed the cap: what happened and where to look. */
export function tooLargeError(node: INode, status: number, itemIndex: number): NodeApiError {
	const cap = mib(MAX_API_BODY_BYTES);
	return new NodeApiError(
		node,
		{ status, message: `response body over ${cap}` },
		{
			message: `GridBank's answer is larger than ${cap}`,
			description: `An API answer of GridBank is at most a few hundred KiB (a page of videos); this one went past ${cap} and was not read further. Something between n8n and GridBank (a proxy or gateway) seems to answer in its place, or the answer does not end. Check the credential's Base URL and the network path, then try again.`,
			httpCode: String(status),
			itemIndex,
			failure: { cause: 'temporarily-unavailable' },
		},
	);
}
