// One ordered stream of a file fetched as byte ranges over parallel connections (n8n's store
// reads in order, so filesystem and S3 modes keep streaming). Which segments are in flight and
// which may start: segment-window.ts (the memory window, plus one segment asked as a part ends:
// early-start.ts); a slow part's tail, or that of a part the download waits on, goes to a free
// connection (hand-over.ts). The head's first part hands its chunks on, the others keep theirs.
// A download starts as one stream and opens its other connections once n8n's store waits on it
// (connection-budget.ts): until then the first response runs on from segment to segment
// (segment-window.ts's extend), paused whenever the store is behind, as the single stream is.
// Each part keeps the single stream's guarantees: a break resumes it with Range from the byte it
// broke at (Max Retries times per part), every response must state exactly the range asked for,
// and any failure ends the whole stream with that error (n8n's store then drops its temporary
// file, and download.ts destroys every other connection through destroy).
import { type Body, TransferError } from '../transport/body-stream';
import { type BinaryStream, discard, orderedOutput, RangeIgnoredError } from './ordered-output';
import { PaceBook } from './hand-over';
import { handOverJudge } from './hand-over-judge';
import { nearItsEnd } from './early-start';
import { type Part, readPart, type SegmentedBodyOptions } from './segment-part';
import { segmentAnswer } from './segment-plan';
import { SegmentWindow } from './segment-window';
import { ConnectionBudget } from './connection-budget';

export type { RangeResponse, SegmentedBodyOptions } from './segment-part';

/**
 * `first` is the response to the first request (bytes 0- of the file, 206): it serves segment 0,
 * and the segments after it while one stream is enough (connection-budget.ts); it is closed at
 * the end of the last segment it took on.
 */
export function segmentedBody(first: Body, options: SegmentedBodyOptions): BinaryStream {
	const { plan } = options;
	const segments = new SegmentWindow(plan);
	const pace = new PaceBook();
	// Replaced when n8n's store begins to read: its waits count from then.
	let budget = new ConnectionBudget(plan.connections, Date.now());
	const stopped = new AbortController();
	let waiting = false;
	let ended = false;

	const output = orderedOutput(first, {
		start: () => {
			waiting = false;
			budget = new ConnectionBudget(plan.connections, Date.now());
			useBudget();
			const head = segments.start();
			head.open = true;
			read(head, first, options.total);
			fill();
			void budget.watch(stopped.signal, () => ended || output.destroyed, grow);
		},
		more: () => {
			waiting = false;
			pump();
		},
		stop: () => {
			stopped.abort();
			segments.clear((part) => part.drop?.());
		},
		meter: options.meter,
	});
	const fail = output.fail;
	const isHeadPart = (part: Part) => segments.headPart() === part;
	/** A free connection with no segment to start takes the tail of the part that will end last. */
	const handOver = handOverJudge({
		segments,
		pace,
		meter: options.meter,
		stopped: stopped.signal,
		destroyed: () => output.destroyed,
		request: (part) => request(part),
		finish: (part) => finish(part),
	});

	/** Hands on the head's chunks in order while n8n's store takes them; moves the window on. */
	const pump = () => {
		while (!waiting && !output.destroyed) {
			if (segments.done) {
				if (!ended) output.push(null);
				ended = true;
				return;
			}
			const part = segments.headPart();
			if (part && part.chunks.length > 0 && budget.fed(Date.now())) grow();
			while (part && part.chunks.length > 0) {
				if (!output.push(part.chunks.shift() as Buffer)) {
					waiting = true;
					return;
				}
			}
			part?.held?.();
			// The store can take more and has nothing: the connections are behind it.
			if (!part?.done) return budget.waiting(Date.now());
			if (segments.shiftHead()) fill();
		}
	};

	/** The window and the item's figures follow the connections the budget allows. */
	function useBudget() {
		segments.allowed = budget.allowed;
		options.meter?.useConnections(budget.allowed);
	}

	function grow() {
		useBudget();
		// No part waits paused for its turn any more.
		segments.active().forEach((part) => part.held?.());
		fill();
	}

	/** Starts segments while the window and the connections allow; else hands a part over. */
	function fill() {
		while (!output.destroyed && segments.canStart() && segments.busy() < segments.allowed)
			request(segments.start());
		handOver();
	}

	/** A part near its end frees its connection for the next segment (early-start.ts). */
	function progress(part: Part) {
		// One stream running on (segment-window.ts's extend) needs no next request.
		if (segments.oneStream(part)) return;
		const left = part.end - part.start - part.got;
		if (!nearItsEnd(part, left, pace.typical(), Date.now())) return;
		part.early = true;
		fill();
	}

	/** GETs the rest of a part, from the byte it got to. */
	function request(part: Part) {
		const from = part.start + part.got;
		// While one connection is enough, asked to the file's end: it may run on (extend).
		part.open = segments.allowed === 1 && !part.cut;
		const end = part.open ? options.total : part.end;
		part.requestedAt = Date.now();
		part.firstByteAt = part.lastByteAt = undefined;
		part.bytes = 0;
		// Asked again (a resume): it holds a connection until it is near its end once more.
		part.early = false;
		options.open(from, end).then(
			(response) => {
				// Handed over whole while it waited: another connection fetches these bytes.
				if (output.destroyed || part.done) return discard(response.body);
				const answer = segmentAnswer(
					response.statusCode,
					response.contentRange,
					from,
					end,
					options.total,
				);
				if (answer === 'ok') return read(part, response.body, end);
				discard(response.body);
				if (answer !== 'ignored') return retryOrFail(part, answer);
				fail(new RangeIgnoredError('storage ignored the byte range and sent the whole file'));
			},
			(error) => part.done || fail(error),
		);
	}

	function retryOrFail(part: Part, problem: string) {
		if (part.resumes++ >= options.maxRetries)
			return fail(
				new TransferError(
					`${problem} (bytes ${part.start}-${part.end - 1}, ${part.resumes} tries)`,
				),
			);
		if (options.meter) options.meter.counts.resumes++;
		request(part);
	}

	/** The part has all its bytes; one never cut is a sample of the connections' pace. */
	function finish(part: Part) {
		part.drop?.();
		part.drop = undefined;
		part.done = true;
		// The first response's bytes may have waited before n8n's store began to read: no sample.
		if (!part.cut && part.segment > 0 && part.firstByteAt !== undefined)
			pace.add(part.bytes, part.requestedAt, part.firstByteAt, Date.now());
		if (isHeadPart(part)) pump();
		fill();
	}

	const extend = (part: Part) => segments.extend(part);
	const mayHold = (part: Part) => segments.oneStream(part);
	const hooks = {
		options,
		output,
		isHeadPart,
		pump,
		finish,
		progress,
		retryOrFail,
		extend,
		mayHold,
	};
	/** Reads one response into a part; `askedEnd`: one past the last byte it was asked for. */
	const read = (part: Part, body: Body, askedEnd: number) => readPart(part, body, askedEnd, hooks);

	return output.stream;
}
