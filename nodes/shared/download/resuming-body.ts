// One readable stream of a file's bytes over one or more storage responses: when a transfer
// breaks, the next response (a Range request from the byte it broke at) carries on in the same
// stream, so n8n's binary data store sees one body and never a partial file.
//
// Event-based on purpose: chunks move from a response to the output with push/pause/resume and
// no promise per chunk (an async generator under Readable.from cost ~6 % of the throughput of
// multi-GB files in `npm run bench`; this runs level with n8n's own httpRequest → store path).
import type { IExecuteFunctions } from 'n8n-workflow';

/** What n8n's prepareBinaryData takes: a Node Readable (named without importing node:stream). */
export type BinaryStream = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

/** The transfer broke or ended early; retried by resuming or restarting, then reported. */
export class TransferError extends Error {}

/** Storage answered a ranged request with the whole file: it stopped honouring ranges. */
export class RangeIgnoredError extends TransferError {}

/** A storage response body, as this module uses it. */
export interface Body {
	on(event: string, listener: (...args: never[]) => void): unknown;
	removeListener(event: string, listener: (...args: never[]) => void): unknown;
	pause(): unknown;
	resume(): unknown;
	destroy(error?: Error): unknown;
	/** Set once the body was destroyed (on a premature close too), after which it emits nothing more. */
	readonly destroyed?: boolean;
}

/** How one response's body ended. */
export interface Ending {
	/** It errored or closed before its end (a reset, a timeout). */
	broke: boolean;
	/** Bytes in this response's body. */
	got: number;
	/** Bytes of the file so far, over all responses. */
	received: number;
}

export interface ResumingBodyOptions {
	/** The whole file's size when storage stated it: a byte beyond it fails the transfer. */
	total: number | undefined;
	/**
	 * Called when a body ends or breaks: resolves to undefined when the file is complete, or to
	 * the response that continues from `received`; rejects to fail the stream.
	 */
	next: (ending: Ending) => Promise<Body | undefined>;
	/** Throws a body's error when it must end the stream as it is instead of resuming (a cancel). */
	rethrowFatal: (error: unknown) => void;
	/** Watches each body while it is read (its rate); told when this stream holds it paused. */
	watch?: (body: Body) => { data(bytes: number): void; hold(): void; release(): void; stop(): void };
}

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
export function readableClassOf(body: object): ReadableClass {
	for (let proto = Object.getPrototypeOf(body) as object | null; proto; proto = Object.getPrototypeOf(proto)) {
		const ctor = (proto as { constructor?: { name?: string; from?: unknown } }).constructor;
		if (ctor?.name === 'Readable' && typeof ctor.from === 'function') return ctor as unknown as ReadableClass;
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

const ignore = () => undefined;

/** Stops reading a body: only our listeners go (n8n's HTTP client keeps its own). */
export function discard(body: Body, listeners: Array<[string, (...args: never[]) => void]>) {
	for (const [event, listener] of listeners) body.removeListener(event, listener);
	// Destroying can still emit an error; with no listener it would crash the process.
	body.on('error', ignore);
	body.destroy();
}

export function resumingBody(first: Body, options: ResumingBodyOptions): BinaryStream {
	const { total } = options;
	let received = 0;
	let destroyed = false;
	/** The body being read, and a way to drop it. */
	let current: { body: Body; drop: () => void; watch?: ReturnType<NonNullable<ResumingBodyOptions['watch']>> } | undefined;

	let started = false;
	const Readable = readableClassOf(first);
	const out = new Readable({
		objectMode: true,
		highWaterMark: BUFFERED_CHUNKS,
		// Nothing flows before n8n's store reads (and listens for errors).
		read: () => {
			if (!started) {
				started = true;
				attach(first);
			} else if (current) {
				current.watch?.release();
				current.body.resume();
			}
		},
		destroy: (error, done) => {
			destroyed = true;
			if (started) current?.drop();
			else discard(first, []);
			done(error);
		},
	});
	const fail = (error: unknown) => {
		if (!destroyed) out.destroy(error instanceof Error ? error : new TransferError(String(error)));
	};

	const attach = (body: Body) => {
		let got = 0;
		let done = false;
		const watch = options.watch?.(body);
		const finish = () => {
			done = true;
			watch?.stop();
			discard(body, listeners);
			if (current?.body === body) current = undefined;
		};
		const end = (broke: boolean) => {
			if (done) return;
			finish();
			if (destroyed) return;
			options.next({ broke, got, received }).then((nextBody) => {
				if (!nextBody) return destroyed || out.push(null);
				if (destroyed) return discard(nextBody, []);
				attach(nextBody);
			}, fail);
		};
		const onData = (chunk: Buffer) => {
			got += chunk.length;
			received += chunk.length;
			if (total !== undefined && received > total) {
				finish();
				return fail(new TransferError('storage sent more bytes than the file has'));
			}
			watch?.data(chunk.length);
			if (!out.push(chunk)) {
				watch?.hold();
				body.pause();
			}
		};
		const onError = (error: unknown) => {
			try {
				options.rethrowFatal(error);
			} catch (fatal) {
				finish();
				return fail(fatal);
			}
			end(true);
		};
		const onEnd = () => end(false);
		// Closed without 'end' or 'error' (a socket gone mid-body): broken.
		const onClose = () => end(true);
		const listeners: Array<[string, (...args: never[]) => void]> = [
			['data', onData],
			['error', onError],
			['end', onEnd],
			['close', onClose],
		];
		current = { body, drop: finish, watch };
		// Broken before n8n's store began to read it (n8n 1.x starts later): its events are gone, and its bytes.
		if (body.destroyed) return end(true);
		for (const [event, listener] of listeners) body.on(event, listener);
		// A 'data' listener does not restart a body that was paused before it came here.
		body.resume();
	};

	return out as unknown as BinaryStream;
}
