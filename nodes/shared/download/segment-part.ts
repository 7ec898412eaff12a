// One part of a segment (segmented-body.ts): the bytes of a byte range as its responses bring
// them. A part whose tail was handed to another connection (hand-over.ts) stops reading at its
// new end; its response was asked for more, so the bytes past that end are let go, never kept.
import { type Body, TransferError } from '../transport/body-stream';
import type { BodyWatch, OrderedOutput } from './ordered-output';
import { readBody } from './ordered-output';
import { pauseBody, resumeBody } from './hand-on';
import type { SegmentPlan } from './segment-plan';
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
	/** Resumes allowed per part (the node's Max Retries). */
	maxRetries: number;
	/** GETs bytes [from, end) (a fresh URL first if the signed one expired); rejects with a clear error. */
	open: (from: number, end: number) => Promise<RangeResponse>;
	/** Throws a body's error when it must end the stream as it is instead of resuming (a cancel). */
	rethrowFatal: (error: unknown) => void;
	/** Watches each response's rate (deadlines.ts): a body too slow is destroyed, and its part resumes. */
	watch?: BodyWatch;
	meter?: TransferMeter;
}

export interface Part {
	/** The segment it belongs to. */
	segment: number;
	/** Its bytes [start, end) of the file; `end` moves back when its tail is handed over. */
	start: number;
	end: number;
	/** Bytes received so far, and those not yet handed on. */
	got: number;
	chunks: Buffer[];
	done: boolean;
	/** Its tail was handed over: it ends before the byte its response was asked to. */
	cut?: boolean;
	/** Near its end (early-start.ts): its connection counts as free for the next segment. */
	early?: boolean;
	/** Its response was asked to the file's end: it may take on the segments after its own. */
	open?: boolean;
	/** The last segment it reaches, once it took on those after its own (segment-window.ts). */
	through?: number;
	/** Its response is paused until n8n's store takes its chunks (one stream): resumes it. */
	held?: () => void;
	resumes: number;
	/** Its current request: when it went out, its first and last bytes came, and its bytes so far. */
	requestedAt: number;
	firstByteAt?: number;
	lastByteAt?: number;
	bytes: number;
	/** Stops reading the current response. */
	drop?: () => void;
}

export const newPart = (segment: number, start: number, end: number): Part => ({
	segment,
	start,
	end,
	got: 0,
	chunks: [],
	done: false,
	resumes: 0,
	requestedAt: Date.now(),
	bytes: 0,
});

interface PartHooks {
	options: SegmentedBodyOptions;
	output: OrderedOutput;
	isHeadPart(part: Part): boolean;
	pump(): void;
	/** All its bytes are in. */
	finish(part: Part): void;
	/** Bytes came for a part not yet near its end. */
	progress(part: Part): void;
	/** Whether the part may take on the next segment instead of ending (segment-window.ts). */
	extend(part: Part): boolean;
	/** Whether the part's response is paused while its chunks wait (one stream running on). */
	mayHold(part: Part): boolean;
	retryOrFail(part: Part, problem: string): void;
}

/**
 * Reads `body` into `part`. `askedEnd` is one past the last byte the response was asked for: the
 * first response (bytes 0-) runs on past segment 0, and a part handed over runs past its new end.
 */
export function readPart(part: Part, body: Body, askedEnd: number, hooks: PartHooks): void {
	const { options, output } = hooks;
	// Parts are never paused (a part ahead of the head keeps its bytes), so only data counts.
	const reader = readBody(body, {
		data: (chunk) => {
			part.lastByteAt = Date.now();
			part.firstByteAt ??= part.lastByteAt;
			const at = part.start + part.got;
			if (chunk.length > askedEnd - at) {
				reader.stop();
				return output.fail(
					new TransferError('storage sent more bytes than the range it announced'),
				);
			}
			// At its end, one stream n8n reads straight through runs on while one connection is enough.
			while (askedEnd > part.end && chunk.length >= part.end - at && hooks.extend(part));
			const room = part.end - at;
			const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
			part.got += piece.length;
			part.bytes += piece.length;
			reader.watch?.data(piece.length);
			if (piece.length > 0) part.chunks.push(piece);
			if (part.start + part.got === part.end && askedEnd > part.end) reader.end(false);
			else {
				if (hooks.isHeadPart(part)) hooks.pump();
				if (!part.early) hooks.progress(part);
				// As the single stream does: the bytes wait in the socket, not in memory (a window
				// of Buffers makes V8 collect more often: docs/downloads.md).
				if (part.chunks.length > 0 && !part.held && hooks.mayHold(part)) {
					pauseBody(reader);
					part.held = () => {
						part.held = undefined;
						resumeBody(reader);
					};
				}
			}
		},
		// Whether it broke or ended, the bytes tell: a part short of its length resumes.
		end: () => {
			part.drop = undefined;
			if (output.destroyed || part.done) return;
			if (part.start + part.got === part.end) return hooks.finish(part);
			hooks.retryOrFail(
				part,
				`the transfer of a segment ended after ${part.got} of ${part.end - part.start} bytes`,
			);
		},
		fatal: (error) => {
			part.drop = undefined;
			output.fail(error);
		},
		rethrowFatal: options.rethrowFatal,
		watch: options.watch,
	});
	part.drop = reader.stop;
	reader.start();
}
