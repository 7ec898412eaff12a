// The hand-over decision alone (hand-over.ts): which part goes to a free connection, and where it is split.
import {
	chooseHandOver,
	ANY_PACE_MIN_GAIN_MS,
	MIN_HANDOVER_BYTES,
	NO_ANSWER_MS,
	PaceBook,
	type PartView,
} from '../../../../nodes/shared/download/hand-over';
import { MiB } from '../../../../nodes/shared/transport/values';

/** 20 MB/s (20,000 bytes per ms), 40 ms to the first byte. */
const typical = { rate: 20_000, latencyMs: 40 };
const now = 100_000;
/** A part `ms` into its response at `rate` bytes per ms, with `left` bytes to go. */
const part = (rate: number, ms: number, left: number): PartView => ({
	at: 1000 + rate * ms,
	end: 1000 + rate * ms + left,
	requestedAt: now - ms - 40,
	firstByteAt: now - ms,
	lastByteAt: now,
	bytes: rate * ms,
});

test('parts at an even pace: no hand-over', () => {
	expect(
		chooseHandOver([part(20_000, 1000, 8 * MiB), part(15_000, 1000, 8 * MiB)], typical, now),
	).toBeUndefined();
});

test('a part at a tenth of the pace: split so that both end together, the free one taking the tail', () => {
	const slow = part(2_000, 1000, 8 * MiB);
	const choice = chooseHandOver([part(20_000, 1000, 8 * MiB), slow], typical, now)!;
	expect(choice.index).toBe(1);
	const kept = choice.split - slow.at;
	// kept / 2,000 = 40 + (8 MiB - kept) / 20,000, give or take a byte.
	expect(Math.abs(kept / 2_000 - (40 + (8 * MiB - kept) / 20_000))).toBeLessThan(0.01);
	expect(slow.end - choice.split).toBeGreaterThanOrEqual(MIN_HANDOVER_BYTES);
});

test('a part silent for NO_ANSWER_MS (1 s) goes over whole, even its last few bytes', () => {
	expect(NO_ANSWER_MS).toBe(1000);
	const stalled = { ...part(20_000, 100, 100_000), lastByteAt: now - NO_ANSWER_MS };
	expect(chooseHandOver([{ ...stalled, lastByteAt: now - 900 }], typical, now)).toBeUndefined();
	expect(chooseHandOver([stalled], typical, now)).toEqual({ index: 0, split: stalled.at });
});

test('a part still waiting for its first byte is given twice the usual delay and 1 s more', () => {
	const waiting = (ms: number): PartView => ({
		at: 0,
		end: 8 * MiB,
		requestedAt: now - ms,
		bytes: 0,
	});
	expect(chooseHandOver([waiting(1000)], typical, now)).toBeUndefined();
	expect(chooseHandOver([waiting(1080)], typical, now)).toEqual({ index: 0, split: 0 });
});

test('a slow part whose hand-over would gain under a second is left alone', () => {
	expect(chooseHandOver([part(5_000, 1000, 2 * MiB)], typical, now)).toBeUndefined();
});

test('the pace is the lower median of the last finished responses', () => {
	const book = new PaceBook();
	expect(book.typical()).toBeUndefined();
	book.add(20_000, 0, 40, 1040);
	book.add(10_000, 0, 20, 1020);
	expect(book.typical()).toEqual({ rate: 10, latencyMs: 20 });
});

test('a part the download waits on (anyPace) is split at the usual pace when that ends it sooner', () => {
	// 8 MiB left at 20,000 bytes per ms: 419 ms; split, both end in about 230 ms.
	const last = part(20_000, 1000, 8 * MiB);
	expect(chooseHandOver([last], typical, now)).toBeUndefined();
	const choice = chooseHandOver([{ ...last, anyPace: true }], typical, now)!;
	expect(choice.index).toBe(0);
	const kept = choice.split - last.at;
	expect(Math.abs(kept / 20_000 - (40 + (8 * MiB - kept) / 20_000))).toBeLessThan(0.01);
});

test('... but not for a gain under ANY_PACE_MIN_GAIN_MS, nor under a first-byte delay', () => {
	expect(ANY_PACE_MIN_GAIN_MS).toBe(100);
	// 3 MiB left: 157 ms; split, 99 ms: 58 ms gained.
	expect(
		chooseHandOver([{ ...part(20_000, 1000, 3 * MiB), anyPace: true }], typical, now),
	).toBeUndefined();
	// On a link whose first byte takes 400 ms, 8 MiB (419 ms to go) gains nothing from a split.
	const far = { ...typical, latencyMs: 400 };
	expect(
		chooseHandOver([{ ...part(20_000, 1000, 8 * MiB), anyPace: true }], far, now),
	).toBeUndefined();
});

test('of a slow part and one the download waits on, the one that ends last goes first', () => {
	const head = { ...part(20_000, 1000, 8 * MiB), anyPace: true };
	const slow = part(2_000, 1000, 4 * MiB);
	expect(chooseHandOver([head, slow], typical, now)?.index).toBe(1);
	expect(chooseHandOver([head, part(20_000, 1000, 4 * MiB)], typical, now)?.index).toBe(0);
});
