// One ordered stream of a file fetched as byte ranges over parallel connections (n8n's store
// reads in order, so filesystem and S3 modes keep streaming). Which segments are in flight and
// which may start: segment-window.ts (the memory window, plus one segment asked as a part ends:
// early-start.ts); a slow part's tail, or that of a part the download waits on, goes to a free
// connection (hand-over.ts). The head's first part hands its chunks on, the others keep theirs.
// A download starts as one stream and opens its other connections once n8n's store waits on it
// (connection-budget.ts): until then the first response is read as the single stream reads it
// (lean-start.ts), then by a part that runs on from segment to segment (segment-window.ts's
// extend) if it broke, paused whenever the store is behind.
// Each part keeps the single stream's guarantees: a break resumes it with Range from the byte it
// broke at (Max Retries times per part), every response must state exactly the range asked for,
// and any failure ends the whole stream with that error (n8n's store then drops its temporary
// file, and download.ts destroys every other connection through destroy).
import type { Body } from '../transport/body-stream';
import { type BinaryStream, orderedOutput } from './ordered-output';
import { PaceBook } from './hand-over';
import { handOverJudge } from './hand-over-judge';
import { nearItsEnd } from './early-start';
import { type Part, readPart, type SegmentedBodyOptions } from './segment-part';
import { segmentRequests } from './segment-request';
import { SegmentWindow } from './segment-window';
import { ConnectionBudget } from './connection-budget';
import { headAt, type LeanStart, leanStart } from './lean-start';

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
	/** The first response while it is read alone (lean-start.ts). */
	let lean: LeanStart | undefined;

	const output = orderedOutput(first, {
		start: () => {
			waiting = false;
			budget = new ConnectionBudget(plan.connections, Date.now());
			useBudget();
			if (budget.allowed > 1) {
				read(headAt(segments, 0), first, options.total);
				fill();
			} else
				lean = leanStart(first, {
					total: options.total,
					output,
					budget,
					watch: options.watch,
					rethrowFatal: options.rethrowFatal,
					opened: grow,
					done: end,
					broke,
				});
			void budget.watch(stopped.signal, () => ended || output.destroyed, grow);
		},
		more: () => {
			waiting = false;
			if (lean) lean.more();
			else pump();
		},
		stop: () => {
			stopped.abort();
			lean?.stop();
			segments.clear((part) => part.drop?.());
		},
		meter: options.meter,
	});
	const { request, retryOrFail } = segmentRequests({
		options,
		segments,
		output,
		read: (part, body, askedEnd) => read(part, body, askedEnd),
	});
	const isHeadPart = (part: Part) => segments.headPart() === part;
	/** A free connection with no segment to start takes the tail of the part that will end last. */
	const handOver = handOverJudge({
		segments,
		pace,
		meter: options.meter,
		stopped: stopped.signal,
		destroyed: () => output.destroyed,
		request,
		finish: (part) => finish(part),
	});

	/** Hands on the head's chunks in order while n8n's store takes them; moves the window on. */
	const pump = () => {
		while (!waiting && !output.destroyed) {
			if (segments.done) return end();
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

	function end() {
		if (!ended && !output.destroyed) output.push(null);
		ended = true;
	}

	/** A part carries on from the byte the lean start got to: it reads on the same response, or asks again. */
	function afterLean(readOn: boolean) {
		const from = lean as LeanStart;
		lean = undefined;
		waiting = from.paused;
		const head = headAt(segments, from.received);
		if (!readOn)
			return retryOrFail(
				head,
				`the transfer ended after ${from.received} of ${options.total} bytes`,
			);
		from.handOff();
		read(head, first, options.total);
	}

	function broke() {
		afterLean(false);
	}

	function grow() {
		if (lean) afterLean(true);
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
