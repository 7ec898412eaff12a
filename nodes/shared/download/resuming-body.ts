// One readable stream of a file's bytes over one or more storage responses: when a transfer
// breaks, the next response (a Range request from the byte it broke at) carries on in the same
// stream, so n8n's binary data store sees one body and never a partial file.
//
// Event-based on purpose: chunks move from a response to the output with push/pause/resume and
// no promise per chunk (an async generator under Readable.from cost ~6 % of the throughput of
// multi-GB files in `npm run bench`; this runs level with n8n's own httpRequest → store path).
import type { Body } from '../transport/body-stream';
import {
	type BinaryStream,
	type BodyWatch,
	discard,
	orderedOutput,
	readBody,
} from './ordered-output';
import { handOn, pastStatedSize, resumeBody } from './hand-on';
import type { TransferMeter } from './transfer-meter';

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
	watch?: BodyWatch;
	meter?: TransferMeter;
}

export function resumingBody(first: Body, options: ResumingBodyOptions): BinaryStream {
	const { total } = options;
	let received = 0;
	/** The body being read. */
	let current: ReturnType<typeof readBody> | undefined;

	const output = orderedOutput(first, {
		start: () => attach(first),
		more: () => current && resumeBody(current),
		stop: () => current?.stop(),
		meter: options.meter,
	});

	const attach = (body: Body) => {
		let got = 0;
		const reader = readBody(body, {
			data: (chunk) => {
				got += chunk.length;
				received += chunk.length;
				if (!pastStatedSize(reader, output, received, total)) handOn(reader, output, chunk);
			},
			end: (broke) => {
				if (current === reader) current = undefined;
				if (output.destroyed) return;
				options.next({ broke, got, received }).then((nextBody) => {
					if (!nextBody) return output.destroyed || output.push(null);
					if (output.destroyed) return discard(nextBody);
					if (options.meter) options.meter.counts.resumes++;
					attach(nextBody);
				}, output.fail);
			},
			fatal: (error) => {
				if (current === reader) current = undefined;
				output.fail(error);
			},
			rethrowFatal: options.rethrowFatal,
			watch: options.watch,
		});
		current = reader;
		reader.start();
	};

	return output.stream;
}
