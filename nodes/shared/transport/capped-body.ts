// API answers are read from n8n's response stream with a byte cap instead of being buffered
// whole: a page of 100 videos is tens of KiB, so an answer past the cap is not GridBank's API
// (a proxy, a gateway, an answer that never ends) and is cut off where it crosses the cap.
import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isSuccess, mib } from './values';
import { sleep } from './wait';

/** n8n's response stream, as read here (named without importing node:stream). */
interface Body {
	on(event: string, listener: (...args: never[]) => void): unknown;
	removeListener(event: string, listener: (...args: never[]) => void): unknown;
	resume(): unknown;
	destroy(): unknown;
}

/** The most an API answer may hold, far above the largest real page (docs/gridbank-api.md#both-apis). */
export const MAX_API_BODY_BYTES = 8 * 1024 * 1024;

/** The answer's text (`cut`: only its first `keep` bytes), or how far it got before it crossed the cap. */
export type CappedText = { text: string; cut?: true } | { tooLarge: number };

const STREAM = { stream: true };
/** Bytes past which an answer's parse waits for the loop's next turn. */
const LARGE_ANSWER = 256 * 1024;

const isStream = (body: unknown): body is Body =>
	typeof body === 'object' && body !== null && typeof (body as Body).on === 'function';

/** The text of the first `keep` of `bytes`. */
const textOf = (bytes: Buffer, keep: number): CappedText =>
	bytes.length > keep
		? { text: bytes.subarray(0, keep).toString('utf8'), cut: true }
		: { text: bytes.toString('utf8') };

/**
 * Reads `body` (n8n's response stream; text or a Buffer on a path that buffered it) up to `cap`
 * bytes, keeping the first `keep` of them (the rest is read and let go); `signal` (the attempt's
 * deadline) ends the read.
 */
export async function readCapped(
	body: unknown,
	signal: AbortSignal,
	cap = MAX_API_BODY_BYTES,
	keep = cap,
): Promise<CappedText> {
	if (!isStream(body)) {
		const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : '');
		return bytes.length > cap ? { tooLarge: bytes.length } : textOf(bytes, keep);
	}
	return await new Promise<CappedText>((resolve, reject) => {
		// Decoded as it comes: 8 MiB of text decoded at its end held the event loop for 36-69 ms.
		const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
		const texts: string[] = [];
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
			const room = keep - size;
			size += bytes.length;
			if (size > cap) return settle(() => resolve({ tooLarge: size }), true);
			if (room > 0)
				texts.push(decoder.decode(bytes.length > room ? bytes.subarray(0, room) : bytes, STREAM));
		};
		const onEnd = () =>
			settle(() => {
				texts.push(decoder.decode());
				const read: CappedText = {
					text: texts.join(''),
					...(size > keep ? { cut: true as const } : {}),
				};
				// A large answer is parsed on the loop's next turn, not in the same block as its last bytes.
				if (size <= LARGE_ANSWER) resolve(read);
				else void sleep(0).then(() => resolve(read));
			});
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

/**
 * The most of an error answer that is decoded and parsed: a GridBank error is a few hundred
 * bytes, and only 16 KiB of one is ever quoted (error-excerpt.ts). Decoding and parsing 8 MiB
 * in one go held n8n's event loop for 70-95 ms per try.
 */
export const ERROR_TEXT_BYTES = 256 * 1024;

/** An API answer of `status`: a success whole (up to the cap), an error's first ERROR_TEXT_BYTES. */
export const readAnswer = (body: unknown, signal: AbortSignal, status: number) =>
	readCapped(
		body,
		signal,
		MAX_API_BODY_BYTES,
		isSuccess(status) ? MAX_API_BODY_BYTES : ERROR_TEXT_BYTES,
	);

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
