// One ordered stream of a file fetched as byte ranges over parallel connections (n8n's store
// reads in order, so filesystem and S3 modes keep streaming). Which segments are in flight and
// which may start: segment-window.ts (the memory window, plus one segment asked as a part ends:
// early-start.ts); a slow part's tail, or that of a part the download waits on, goes to a free
// connection (hand-over.ts). The head's first part hands its chunks on, the others keep theirs.
// Each part keeps the single stream's guarantees: a break resumes it with Range from the byte it
// broke at (Max Retries times per part), every response must state exactly the range asked for,
// and any failure ends the whole stream with that error (n8n's store then drops its temporary
// file, and download.ts destroys every other connection through destroy).
import { sleep } from '../transport/wait';
import { type Body, TransferError } from '../transport/body-stream';
import { type BinaryStream, discard, orderedOutput, RangeIgnoredError } from './ordered-output';
import { chooseHandOver, PaceBook, RECHECK_MS } from './hand-over';
import { nearItsEnd } from './early-start';
import { type Part, readPart, type SegmentedBodyOptions } from './segment-part';
import { segmentAnswer } from './segment-plan';
import { SegmentWindow } from './segment-window';

export type { RangeResponse, SegmentedBodyOptions } from './segment-part';

/**
 * `first` is the response to the first request (bytes 0- of the file, 206): it serves segment 0
 * and is closed at that segment's end.
 */
export function segmentedBody(first: Body, options: SegmentedBodyOptions): BinaryStream {
	const { plan } = options;
	const segments = new SegmentWindow(plan);
	const pace = new PaceBook();
	const stopped = new AbortController();
	let rechecking = false;
	let judging = false;
	let waiting = false;
	let ended = false;

	const output = orderedOutput(first, {
		start: () => {
			waiting = false;
			read(segments.start(), first, options.total);
			fill();
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

	/** Hands on the head's chunks in order while n8n's store takes them; moves the window on. */
	const pump = () => {
		while (!waiting && !output.destroyed) {
			if (segments.done) {
				if (!ended) output.push(null);
				ended = true;
				return;
			}
			const part = segments.headPart();
			if (!part) return;
			while (part.chunks.length > 0) {
				if (!output.push(part.chunks.shift() as Buffer)) {
					waiting = true;
					return;
				}
			}
			if (!part.done) return;
			if (segments.shiftHead()) fill();
		}
	};

	/** Starts segments while the window and the connections allow; else hands a part over. */
	function fill() {
		while (!output.destroyed && segments.canStart() && segments.busy() < plan.connections)
			request(segments.start());
		handOver();
	}

	/** A part near its end frees its connection for the next segment (early-start.ts). */
	function progress(part: Part) {
		const left = part.end - part.start - part.got;
		if (!nearItsEnd(part, left, pace.typical(), Date.now())) return;
		part.early = true;
		fill();
	}

	/**
	 * A free connection with no segment to start takes the tail of the part that will end last.
	 * Judged on the event loop's next turn, once every byte already come has been read: right
	 * after the process was held up, a part that kept flowing would look silent.
	 */
	function handOver() {
		if (judging || output.destroyed) return;
		judging = true;
		sleep(0, stopped.signal).then(
			() => {
				judging = false;
				judge();
			},
			() => undefined,
		);
	}

	function judge() {
		const parts = segments.active();
		if (output.destroyed || segments.canStart() || parts.length >= plan.connections) return;
		const typical = pace.typical();
		if (!typical || parts.length === 0) return;
		const choice = chooseHandOver(segments.views(parts), typical, Date.now());
		if (!choice) return recheck();
		const victim = parts[choice.index] as Part;
		const tail = segments.split(victim, choice.split);
		if (options.meter) options.meter.counts.handedOver++;
		request(tail);
		// Handed over whole (it made no progress): its response, if any, is let go now.
		if (victim.start + victim.got === victim.end) finish(victim);
		judge();
	}

	/** Looks again soon: a part judged fine so far may stall or slow down. */
	function recheck() {
		if (rechecking) return;
		rechecking = true;
		sleep(RECHECK_MS, stopped.signal).then(
			() => {
				rechecking = false;
				handOver();
			},
			() => undefined,
		);
	}

	/** GETs the rest of a part, from the byte it got to. */
	function request(part: Part) {
		const from = part.start + part.got;
		const { end } = part;
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

	const hooks = { options, output, isHeadPart, pump, finish, progress, retryOrFail };
	/** Reads one response into a part; `askedEnd`: one past the last byte it was asked for. */
	const read = (part: Part, body: Body, askedEnd: number) => readPart(part, body, askedEnd, hooks);

	return output.stream;
}
