// How a file is cut into byte ranges for parallel connections. Pure, so it is unit-tested alone.
//
// The stream handed to n8n must be in order, so a range fetched ahead of the one n8n is reading
// waits in memory. Every range is at most one segment long and at most `connections` ranges are
// in flight (the window), so at most connections × segment size bytes wait: the memory window;
// plus one segment asked early while the one n8n reads gets its last bytes (early-start.ts).

// The connection count comes as readParallelConnections (read-parameters.ts, where its bounds
// live) checked it: it is not checked again here.
import { MiB } from '../transport/values';

/** Bytes that may wait in memory for n8n's store, over all connections. */
export const WINDOW_BYTES = 64 * MiB;
/**
 * A copy to storage's window (nodes/shared/storage/), its part buffers held beside it: the
 * download's. A 32 MiB window (8 segments of 4 MiB) held a copy over a 100 MB/s, 40 ms link to
 * 0.67 of it on a quiet machine (every round trip and every wait on the slowest segment costs
 * more with short segments); 64 MiB reached 0.90 at 1 GiB, 0.93 at 4 GiB (docs/storage-chain.md).
 */
export const COPY_WINDOW_BYTES = WINDOW_BYTES;
/**
 * Segment bounds. Each segment costs one request (a round trip before its first byte), so a
 * segment should take many round trips to arrive: 4 MiB at 25 MB/s is ~170 ms, 4 round trips of 40 ms.
 */
export const MIN_SEGMENT_BYTES = 4 * MiB;
export const MAX_SEGMENT_BYTES = 16 * MiB;

/** The smallest segment of the first round's ramp. */
const MIN_RAMP_BYTES = 1 * MiB;

export interface Segment {
	index: number;
	/** First byte. */
	start: number;
	/** One past the last byte. */
	end: number;
}

export interface SegmentPlan {
	connections: number;
	segmentBytes: number;
	/** connections × segmentBytes: the window (one segment more may wait: early-start.ts). */
	windowBytes: number;
	/** How many segments cover the file. */
	count: number;
	/** Segment `index` (0 to count - 1), computed when asked: nothing is allocated by the file's size. */
	segmentAt(index: number): Segment;
}

/** Segment size for a connection count: the window shared out, within the bounds. */
export function segmentBytesFor(connections: number, windowBytes = WINDOW_BYTES): number {
	const share = Math.floor(windowBytes / Math.max(1, connections));
	return Math.min(MAX_SEGMENT_BYTES, Math.max(MIN_SEGMENT_BYTES, share));
}

/**
 * Segments covering bytes [0, total) in order, or undefined when parallel ranges cannot help:
 * one connection, or a file of a single segment. Fewer connections than asked when the file has
 * fewer segments, or the window (`windowBytes`, at most 64 MiB) fits fewer. Every segment is at most segmentBytes long. Lazy: the plan holds at most 15
 * numbers whatever the total, and the segments are computed as the download reaches them.
 */
export function planSegments(
	total: number,
	requested: number,
	windowBytes = WINDOW_BYTES,
): SegmentPlan | undefined {
	if (!Number.isSafeInteger(total) || total <= 0) return undefined;
	// No more connections than segments of the smallest size fit the window (16 in 64 MiB).
	const fit = Math.max(2, Math.floor(windowBytes / MIN_SEGMENT_BYTES));
	const wanted = Math.min(Math.floor(requested), fit);
	if (!(wanted >= 2)) return undefined;
	const segmentBytes = segmentBytesFor(wanted, windowBytes);
	if (total <= segmentBytes) return undefined;
	// The first round ramps up (1/n, 2/n, ... of a segment), so that the connections finish
	// one after another instead of all at once: while one waits a round trip for its next
	// segment, the others keep the link busy. Then whole segments to the end.
	const rampStarts: number[] = [];
	let rampEnd = 0;
	for (let index = 0; index < wanted - 1 && rampEnd < total; index++) {
		rampStarts.push(rampEnd);
		const size = Math.max(MIN_RAMP_BYTES, Math.floor((segmentBytes * (index + 1)) / wanted));
		rampEnd = Math.min(total, rampEnd + size);
	}
	const count = rampStarts.length + Math.ceil((total - rampEnd) / segmentBytes);
	/** Where segment `index` starts (`count`: the end of the file). */
	const boundary = (index: number) =>
		index < rampStarts.length
			? (rampStarts[index] as number)
			: Math.min(total, rampEnd + (index - rampStarts.length) * segmentBytes);
	const connections = Math.min(wanted, count);
	return {
		connections,
		segmentBytes,
		windowBytes: connections * segmentBytes,
		count,
		segmentAt: (index) => ({ index, start: boundary(index), end: boundary(index + 1) }),
	};
}

/** The Range header value for the bytes of a segment from `from` on. */
export const rangeHeader = (from: number, end: number) => `bytes=${from}-${end - 1}`;

/**
 * Whether a Content-Range states exactly bytes [from, end) of a file of `total` bytes: anything
 * else (another range, another size, none) must not be stitched into the file.
 */
export function isExactRange(
	contentRange: string | undefined,
	from: number,
	end: number,
	total: number,
): boolean {
	const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec((contentRange ?? '').trim());
	return !!m && Number(m[1]) === from && Number(m[2]) === end - 1 && Number(m[3]) === total;
}

/**
 * What a segment's response is worth: its bytes (a 206 stating exactly [from, end)), 'ignored'
 * (a 200: storage sent the whole file, so ranges cannot be used), or a problem to retry on.
 */
export function segmentAnswer(
	statusCode: number,
	contentRange: string | undefined,
	from: number,
	end: number,
	total: number,
): 'ok' | 'ignored' | string {
	if (statusCode === 200) return 'ignored';
	if (statusCode === 206 && isExactRange(contentRange, from, end, total)) return 'ok';
	return `storage answered bytes ${from}-${end - 1} with ${contentRange ?? `HTTP ${statusCode} and no range`}`;
}
