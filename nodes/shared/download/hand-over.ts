// The hand-over of a slow segment's unfinished part to a free connection, as aria2c does. One
// slow or stalled connection would otherwise hold the whole file: n8n reads in order, so the
// window cannot move past its segment. Pure, so it is unit-tested alone; segmented-body.ts acts.
//
// When a connection is free and no segment may start (all started, or the memory window full),
// the part that will finish last, of those that are slow or that the download waits on, is split
// where both connections are expected to finish together: the free one takes the tail, the other
// stops at the split point. Nothing is fetched twice but what the other response had under way
// when it was stopped.
import { MiB } from '../transport/values';

/** The least a hand-over gives the free connection: its request's round trip must pay. */
export const MIN_HANDOVER_BYTES = 1 * MiB;
/** A part is slow below this share of the pace (a loaded machine's jitter stays above). */
export const SLOW_SHARE = 1 / 3;
/** A hand-over must bring the part's expected end forward by at least this much. */
export const MIN_GAIN_MS = 1000;
/**
 * A part the download waits on (the head's, while the window is full; any, once every segment
 * has started) is split at any pace when that brings its end forward by this many usual
 * first-byte delays: a free connection has nothing else to do. aria2c's ranges end together;
 * ours would end one after another, the link idling meanwhile.
 */
export const ANY_PACE_GAIN_LATENCIES = 1;
/** ... and by at least this much (on a fast link a first-byte delay is a millisecond or two). */
export const ANY_PACE_MIN_GAIN_MS = 100;
/**
 * A part with no answer yet is judged only after twice the usual first-byte delay and this; a
 * part silent this long makes no progress. Judged only after every byte already come has been
 * read (segmented-body.ts), so a process held up (a long pause for garbage collection, a busy
 * machine) does not take flowing parts for stalled ones.
 */
export const NO_ANSWER_MS = 1000;
/** How often a free connection looks again while every part is judged fine so far. */
export const RECHECK_MS = 100;

/** One part in flight, as the decision sees it. */
export interface PartView {
	/** The next byte it will receive, and one past its last. */
	at: number;
	end: number;
	/** When its current request went out, and when that response's first byte came. */
	requestedAt: number;
	firstByteAt?: number;
	/** When its last byte came. */
	lastByteAt?: number;
	/** Bytes of its current response so far. */
	bytes: number;
	/** The download waits on it: split at any pace (ANY_PACE_GAIN_LATENCIES), not only when slow. */
	anyPace?: boolean;
}

/** The connections' usual pace, from the responses that finished: bytes per ms, ms to first byte. */
export interface Typical {
	rate: number;
	latencyMs: number;
}

export interface HandOver {
	/** Index of the part in the list given. */
	index: number;
	/** Where the slow part stops and the free connection starts. */
	split: number;
}

/** The lower median: with two samples, the slower one (a part is judged against a modest pace). */
const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[(values.length - 1) >> 1] ?? 0;

/** The last few finished responses' rates and first-byte delays. */
export class PaceBook {
	private readonly rates: number[] = [];
	private readonly latencies: number[] = [];
	/** Computed once per sample: it is read for every chunk (early-start.ts). */
	private current: Typical | undefined;

	add(bytes: number, requestedAt: number, firstByteAt: number, endedAt: number): void {
		if (bytes <= 0) return;
		this.rates.push(bytes / Math.max(1, endedAt - firstByteAt));
		this.latencies.push(Math.max(0, firstByteAt - requestedAt));
		if (this.rates.length > 8) this.rates.shift();
		if (this.latencies.length > 8) this.latencies.shift();
		this.current = { rate: median(this.rates), latencyMs: median(this.latencies) };
	}

	typical(): Typical | undefined {
		return this.current;
	}
}

/** The part's rate now (bytes per ms): 0 once it waited too long for a byte; undefined: too early to tell. */
function rateOf(part: PartView, typical: Typical, now: number): number | undefined {
	if (part.firstByteAt === undefined)
		return now - part.requestedAt < 2 * typical.latencyMs + NO_ANSWER_MS ? undefined : 0;
	if (now - (part.lastByteAt ?? part.firstByteAt) >= NO_ANSWER_MS) return 0;
	return part.bytes / Math.max(1, now - part.firstByteAt);
}

/**
 * The hand-over worth making now, or undefined: of the parts slower than SLOW_SHARE of the
 * typical rate (or of any pace, marked `anyPace`), the one expected to finish last, split so
 * that both connections end together (the free one pays a first-byte delay), when that gains at
 * least MIN_GAIN_MS (a slow part) or ANY_PACE_GAIN_LATENCIES first-byte delays and
 * ANY_PACE_MIN_GAIN_MS, never more than MIN_GAIN_MS (any pace); the free connection takes at least MIN_HANDOVER_BYTES, or
 * the whole remainder when it is shorter.
 */
export function chooseHandOver(
	parts: readonly PartView[],
	finished: Typical,
	now: number,
): HandOver | undefined {
	const anyPaceGainMs = Math.min(
		MIN_GAIN_MS,
		Math.max(ANY_PACE_GAIN_LATENCIES * finished.latencyMs, ANY_PACE_MIN_GAIN_MS),
	);
	const rates = parts.map((part) => rateOf(part, finished, now));
	let best: (HandOver & { finishMs: number }) | undefined;
	parts.forEach((part, index) => {
		const remaining = part.end - part.at;
		const rate = rates[index];
		// Judged against its peers too: on a busy machine every connection slows down together.
		const peers = rates.filter((r, i) => i !== index && r !== undefined) as number[];
		const fastestPeer = Math.max(0, ...peers);
		const typical =
			fastestPeer > 0 ? { ...finished, rate: Math.min(finished.rate, fastestPeer) } : finished;
		if (remaining <= 0 || rate === undefined) return;
		const slow = rate < SLOW_SHARE * typical.rate;
		if (!slow && !part.anyPace) return;
		const finishMs = rate > 0 ? remaining / rate : Infinity;
		// Bytes the slow part keeps: kept / rate = latency + (remaining - kept) / typical rate.
		const balanced =
			(rate * (typical.rate * typical.latencyMs + remaining)) / (typical.rate + rate);
		// A short remainder goes over whole (worth it only when the part all but stopped).
		const kept =
			remaining <= MIN_HANDOVER_BYTES
				? 0
				: Math.min(Math.floor(balanced), remaining - MIN_HANDOVER_BYTES);
		const newEndMs = Math.max(
			rate > 0 ? kept / rate : 0,
			typical.latencyMs + (remaining - kept) / typical.rate,
		);
		if (finishMs - newEndMs < (part.anyPace ? anyPaceGainMs : MIN_GAIN_MS)) return;
		if (!best || finishMs > best.finishMs) best = { index, split: part.at + kept, finishMs };
	});
	return best && { index: best.index, split: best.split };
}
