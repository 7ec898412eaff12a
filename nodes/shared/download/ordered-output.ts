// What the two download bodies (resuming-body.ts: one response after another; segmented-body.ts:
// parallel ranges) share: the Readable they hand n8n's store, and how they read one storage
// response and let go of it.
import type { IExecuteFunctions } from 'n8n-workflow';

import { type Body, TransferError } from '../transport/body-stream';
import { discard } from './let-go';

export { discard };

/** What n8n's prepareBinaryData takes: a Node Readable (named without importing node:stream). */
export type BinaryStream = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

/** Storage answered a ranged request with the whole file: it stopped honouring ranges. */
export class RangeIgnoredError extends TransferError {}

/**
 * Watches a body while it is read (its rate, deadlines.ts); told when the output holds it
 * paused. `cut` ends the body as broken at once (too slow).
 */
export type BodyWatch = (
	body: Body,
	cut: (error: Error) => void,
) => {
	data(bytes: number): void;
	hold(): void;
	release(): void;
	stop(): void;
};

interface Output {
	push(chunk: Buffer | null): boolean;
	destroy(error?: Error): unknown;
}
type ReadableClass = new (options: {
	highWaterMark?: number;
	objectMode?: boolean;
	read: () => void;
	destroy: (error: Error | null, done: (error?: Error | null) => void) => void;
}) => Output;

/**
 * Node's Readable class, from the response's own prototype chain: community nodes may not
 * import node:stream, and every storage body (IncomingMessage, or a decoding Transform) is one.
 */
function readableClassOf(body: object): ReadableClass {
	for (
		let proto = Object.getPrototypeOf(body) as object | null;
		proto;
		proto = Object.getPrototypeOf(proto)
	) {
		const ctor = (proto as { constructor?: { name?: string; from?: unknown } }).constructor;
		if (ctor?.name === 'Readable' && typeof ctor.from === 'function')
			return ctor as unknown as ReadableClass;
	}
	throw new TransferError('storage response is not a stream');
}

/**
 * Chunks (of up to 64 KiB) that may wait for n8n's binary data store, which writes one read at
 * a time: enough to keep the socket flowing while a write is slow. Object mode hands n8n the
 * response's own Buffers: in byte mode a read concatenates what is buffered into a new Buffer,
 * and with a 4 MiB buffer those copies doubled the garbage (peak RSS growth 104-118 MiB for
 * 4 GiB against n8n's own path's 55-65 in `npm run bench`).
 */
const BUFFERED_CHUNKS = 16;

/** Sees every chunk handed on, in order (transfer-meter.ts); `end`: the error that must fail the stream, if any. */
export interface ChunkMeter {
	data(chunk: Buffer): void;
	end(): Error | undefined;
}

export interface OrderedOutput {
	push(chunk: Buffer | null): boolean;
	/** Ends the stream with this error (once; nothing after the store let go of it). */
	fail(error: unknown): void;
	readonly destroyed: boolean;
	readonly stream: BinaryStream;
}

/**
 * The output stream. Nothing flows before n8n's store reads (and listens for errors): its first
 * read calls `start`, later ones `more`; `stop` lets every body go when the stream is destroyed
 * (`first` too, when the store never started reading).
 */
export function orderedOutput(
	first: Body,
	/** `meter` counts and hashes every chunk in order; a content mismatch fails the stream at its end. */
	hooks: { start(): void; more(): void; stop(): void; meter?: ChunkMeter },
): OrderedOutput {
	const { meter } = hooks;
	let started = false;
	let destroyed = false;
	const Readable = readableClassOf(first);
	const out = new Readable({
		objectMode: true,
		highWaterMark: BUFFERED_CHUNKS,
		read: () => {
			if (started) return hooks.more();
			started = true;
			hooks.start();
		},
		destroy: (error, done) => {
			destroyed = true;
			if (started) hooks.stop();
			else discard(first);
			done(error);
		},
	});
	const fail = (error: unknown) => {
		if (!destroyed) out.destroy(error instanceof Error ? error : new TransferError(String(error)));
	};
	return {
		push: (chunk) => {
			if (!meter) return out.push(chunk);
			if (chunk) meter.data(chunk);
			else {
				const mismatch = meter.end();
				if (mismatch) return (fail(mismatch), false);
			}
			return out.push(chunk);
		},
		fail,
		get destroyed() {
			return destroyed;
		},
		stream: out as unknown as BinaryStream,
	};
}

export interface BodyReader {
	data(chunk: Buffer): void;
	/** The body ended ('end': broke false) or broke (an error, or closed without 'end'); it was let go. */
	end(broke: boolean): void;
	/** An error that must end the whole stream as it is (a cancel); the body was let go. */
	fatal(error: unknown): void;
	/** Throws a body's error when it is fatal. */
	rethrowFatal(error: unknown): void;
	watch?: BodyWatch;
}

/** Reads one body into `reader` once `start` is called; `stop` lets it go (and ends its watch). */
export function readBody(body: Body, reader: BodyReader) {
	let stopped = false;
	// A cut (too slow) ends the body as an error would, without waiting for its stream to report one.
	const watch = reader.watch?.(body, (error) => onError(error));
	const stop = () => {
		if (stopped) return;
		stopped = true;
		watch?.stop();
		discard(body, listeners);
	};
	const end = (broke: boolean) => {
		if (stopped) return;
		stop();
		reader.end(broke);
	};
	const onError = (error: unknown) => {
		try {
			reader.rethrowFatal(error);
		} catch (fatal) {
			stop();
			return reader.fatal(fatal);
		}
		end(true);
	};
	const listeners: Array<[string, (...args: never[]) => void]> = [
		['data', (chunk: Buffer) => stopped || reader.data(chunk)],
		['error', onError],
		['end', () => end(false)],
		// Closed without 'end' or 'error' (a socket gone mid-body): broken.
		['close', () => end(true)],
	];
	const start = () => {
		// Broken before n8n's store began to read it (n8n 1.x starts later): its events are gone, and its bytes.
		if (body.destroyed) return end(true);
		for (const [event, listener] of listeners) body.on(event, listener);
		// A 'data' listener does not restart a body that was paused before it came here.
		body.resume();
	};
	/** Stops reading without letting the body go: another reader takes it on at once. */
	const detach = () => {
		stopped = true;
		watch?.stop();
		for (const [event, listener] of listeners) body.removeListener(event, listener);
	};
	return { body, start, stop, end, detach, watch };
}
