// One ordered stream of a file fetched as byte ranges over parallel connections: n8n's
// prepareBinaryData still reads the bytes in order, so filesystem and S3 modes keep streaming.
//
// A window of at most `connections` segments is in flight. The segment n8n is reading (the head)
// hands its chunks on as they come; a segment ahead of it keeps its chunks until it becomes the
// head. A segment is at most segmentBytes long, so at most connections × segmentBytes wait in
// memory (segment-plan.ts), and a new segment starts only when the head is done.
//
// Each segment keeps the single stream's guarantees: a break resumes that segment with Range
// from the byte it broke at (Max Retries times per segment), every response must state exactly
// the range asked for, and any failure ends the whole stream with that error (n8n's store then
// drops its temporary file, and download.ts destroys every other connection through destroy).
import { type Body, TransferError } from '../transport/body-stream';
import {
	type BinaryStream,
	type BodyWatch,
	discard,
	orderedOutput,
	RangeIgnoredError,
	readBody,
} from './ordered-output';
import { segmentAnswer, type Segment, type SegmentPlan } from './segment-plan';
import type { TransferMeter } from './transfer-meter';

/** What a segment needs from one storage response. */
export interface RangeResponse {
	statusCode: number;
	contentRange: string | undefined;
	body: Body;
}

export interface SegmentedBodyOptions {
	plan: SegmentPlan;
	total: number;
	/** Resumes allowed per segment (the node's Max Retries). */
	maxRetries: number;
	/** GETs bytes [from, end) (a fresh URL first if the signed one expired); rejects with a clear error. */
	open: (from: number, end: number) => Promise<RangeResponse>;
	/** Throws a body's error when it must end the stream as it is instead of resuming (a cancel). */
	rethrowFatal: (error: unknown) => void;
	/** Watches each response's rate (deadlines.ts): a body too slow is destroyed, and its segment resumes. */
	watch?: BodyWatch;
	meter?: TransferMeter;
}

interface Slot {
	segment: Segment;
	/** Received and not yet handed on. */
	chunks: Buffer[];
	/** Bytes of this segment received so far. */
	got: number;
	done: boolean;
	resumes: number;
	/** Stops reading the current response. */
	drop?: () => void;
}

/**
 * `first` is the response to the first request (bytes 0- of the file, 206): it serves segment 0
 * and is closed at that segment's end.
 */
export function segmentedBody(first: Body, options: SegmentedBodyOptions): BinaryStream {
	const { plan } = options;
	const slots = new Map<number, Slot>();
	let head = 0;
	let nextToStart = 0;
	let waiting = false;
	let ended = false;

	const output = orderedOutput(first, {
		start: () => {
			waiting = false;
			attach(startSlot(), first);
			fill();
		},
		more: () => {
			waiting = false;
			pump();
		},
		stop: () => {
			for (const slot of slots.values()) slot.drop?.();
			slots.clear();
		},
		meter: options.meter,
	});
	const fail = output.fail;

	/** Hands on the head's chunks in order while n8n's store takes them; moves the window on. */
	const pump = () => {
		while (!waiting && !output.destroyed) {
			if (head === plan.count) {
				if (!ended) output.push(null);
				ended = true;
				return;
			}
			const slot = slots.get(head);
			if (!slot) return;
			while (slot.chunks.length > 0) {
				if (!output.push(slot.chunks.shift() as Buffer)) {
					waiting = true;
					return;
				}
			}
			if (!slot.done) return;
			slots.delete(head++);
			fill();
		}
	};

	function startSlot(): Slot {
		const segment = plan.segmentAt(nextToStart++);
		const slot: Slot = { segment, chunks: [], got: 0, done: false, resumes: 0 };
		slots.set(segment.index, slot);
		return slot;
	}

	/** Starts segments until the window is full. */
	function fill() {
		while (!output.destroyed && nextToStart < plan.count && nextToStart < head + plan.connections)
			request(startSlot());
	}

	/** GETs the rest of a segment, from the byte it got to. */
	function request(slot: Slot) {
		const from = slot.segment.start + slot.got;
		const { end } = slot.segment;
		options.open(from, end).then((response) => {
			if (output.destroyed) return discard(response.body);
			const answer = segmentAnswer(
				response.statusCode,
				response.contentRange,
				from,
				end,
				options.total,
			);
			if (answer === 'ok') return attach(slot, response.body);
			discard(response.body);
			if (answer !== 'ignored') return retryOrFail(slot, answer);
			fail(new RangeIgnoredError('storage ignored the byte range and sent the whole file'));
		}, fail);
	}

	function retryOrFail(slot: Slot, problem: string) {
		if (slot.resumes++ >= options.maxRetries)
			return fail(
				new TransferError(
					`${problem} (bytes ${slot.segment.start}-${slot.segment.end - 1}, ${slot.resumes} tries)`,
				),
			);
		if (options.meter) options.meter.counts.resumes++;
		request(slot);
	}

	function attach(slot: Slot, body: Body) {
		const length = slot.segment.end - slot.segment.start;
		// Segments are never paused (a segment ahead of the head keeps its bytes), so only data counts.
		const reader = readBody(body, {
			data: (chunk) => {
				const room = length - slot.got;
				// The first response runs on past segment 0: keep its part, then close it.
				const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
				if (chunk.length > room && body !== first) {
					reader.stop();
					return fail(new TransferError('storage sent more bytes than the range it announced'));
				}
				slot.got += part.length;
				reader.watch?.data(part.length);
				if (part.length > 0) slot.chunks.push(part);
				if (slot.got === length && body === first) reader.end(false);
				else if (slot.segment.index === head) pump();
			},
			// Whether it broke or ended, the bytes tell: a segment short of its length resumes.
			end: () => {
				slot.drop = undefined;
				if (output.destroyed) return;
				if (slot.got === length) {
					slot.done = true;
					return pump();
				}
				retryOrFail(slot, `the transfer of a segment ended after ${slot.got} of ${length} bytes`);
			},
			fatal: (error) => {
				slot.drop = undefined;
				fail(error);
			},
			rethrowFatal: options.rethrowFatal,
			watch: options.watch,
		});
		slot.drop = reader.stop;
		reader.start();
	}

	return output.stream;
}
