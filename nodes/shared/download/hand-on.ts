// How a body read straight through to n8n's store (resuming-body.ts, lean-start.ts) hands on its
// chunks, and how any read body is paused while the store is full (segment-part.ts too): the
// bytes then wait in the socket, not in memory, and the body's rate watch is held meanwhile.
import { TransferError } from '../transport/body-stream';
import type { OrderedOutput, readBody } from './ordered-output';

type BodyRead = ReturnType<typeof readBody>;

/** True, and the stream failed, when `received` (the file's bytes so far) passed the size storage stated. */
export function pastStatedSize(
	read: BodyRead,
	output: OrderedOutput,
	received: number,
	total: number | undefined,
): boolean {
	if (total === undefined || received <= total) return false;
	read.stop();
	output.fail(new TransferError('storage sent more bytes than the file has'));
	return true;
}

/** Hands a chunk on; false when n8n's store is full: the body is then paused until `resumeBody`. */
export function handOn(read: BodyRead, output: OrderedOutput, chunk: Buffer): boolean {
	read.watch?.data(chunk.length);
	if (output.push(chunk)) return true;
	pauseBody(read);
	return false;
}

/** The store is full: the body waits, and its rate watch does not count the wait against it. */
export function pauseBody(read: BodyRead): void {
	read.watch?.hold();
	read.body.pause();
}

/** n8n's store read again: the paused body flows on. */
export function resumeBody(read: BodyRead): void {
	read.watch?.release();
	read.body.resume();
}
