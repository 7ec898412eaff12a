// The segment planner alone: segments cover the file exactly, the memory window stays bounded.
import {
	isExactRange,
	segmentAnswer,
	MAX_SEGMENT_BYTES,
	MIN_SEGMENT_BYTES,
	planSegments,
	rangeHeader,
	segmentBytesFor,
	WINDOW_BYTES,
	COPY_WINDOW_BYTES,
	type SegmentPlan,
} from '../../../../nodes/shared/download/segment-plan';
import { MiB } from '../../../../nodes/shared/transport/values';

/** Every segment of a plan, in order (the plan itself computes them one at a time). */
const segmentsOf = (plan: SegmentPlan) =>
	Array.from({ length: plan.count }, (_, i) => plan.segmentAt(i));

test.each([2, 3, 4, 7, 8, 16])(
	'%i connections: segments tile [0, total) in order, window ≤ 64 MiB',
	(connections) => {
		for (const total of [16 * MiB + 1, 100 * MiB - 3, 4 * 1024 * MiB]) {
			const plan = planSegments(total, connections)!;
			expect(plan.connections).toBe(Math.min(connections, segmentsOf(plan).length));
			let at = 0;
			segmentsOf(plan).forEach((s, i) => {
				expect(s).toMatchObject({ index: i, start: at });
				expect(s.end - s.start).toBeGreaterThan(0);
				expect(s.end - s.start).toBeLessThanOrEqual(plan.segmentBytes);
				at = s.end;
			});
			expect(at).toBe(total);
			expect(plan.windowBytes).toBe(plan.connections * plan.segmentBytes);
			expect(plan.windowBytes).toBeLessThanOrEqual(WINDOW_BYTES);
		}
	},
);

test('segment size: the window shared out, within 4-16 MiB', () => {
	expect(WINDOW_BYTES).toBe(64 * MiB);
	expect(segmentBytesFor(2)).toBe(MAX_SEGMENT_BYTES);
	expect(segmentBytesFor(4)).toBe(16 * MiB);
	expect(segmentBytesFor(8)).toBe(8 * MiB);
	expect(segmentBytesFor(16)).toBe(MIN_SEGMENT_BYTES);
	expect(MIN_SEGMENT_BYTES).toBe(4 * MiB);
});

test.each([2, 4, 8, 16])(
	"%i connections, a copy's 64 MiB window: segments tile the file, window ≤ 64 MiB (at most 16 connections of 4 MiB)",
	(connections) => {
		for (const total of [16 * MiB + 1, 4 * 1024 * MiB]) {
			const plan = planSegments(total, connections, COPY_WINDOW_BYTES)!;
			const segments = segmentsOf(plan);
			expect(segments.at(-1)!.end).toBe(total);
			expect(segments.every((s) => s.end - s.start <= plan.segmentBytes)).toBe(true);
			expect(plan.connections).toBe(Math.min(connections, 16, segments.length));
			expect(plan.windowBytes).toBeLessThanOrEqual(COPY_WINDOW_BYTES);
		}
	},
);

test('no plan when parallel ranges cannot help: one connection, one segment, no size', () => {
	expect(planSegments(100 * MiB, 1)).toBeUndefined();
	expect(planSegments(segmentBytesFor(4), 4)).toBeUndefined();
	expect(planSegments(0, 4)).toBeUndefined();
	expect(planSegments(Number.NaN, 4)).toBeUndefined();
});

test('a file of few segments uses no more connections than segments', () => {
	const plan = planSegments(9 * MiB, 8)!;
	// 8 connections: 8 MiB segments, ramping up from 1 MiB: 1, 2, 3, 3 (the rest).
	expect(segmentsOf(plan).map((x) => (x.end - x.start) / MiB)).toEqual([1, 2, 3, 3]);
	expect(plan.connections).toBe(4);
});

test('the plan takes the count readParallelConnections checked: under 2 is one stream', () => {
	for (const connections of [0, -3, 1, 1.9, NaN])
		expect(planSegments(100 * MiB, connections)).toBeUndefined();
	expect(planSegments(100 * MiB, 16)?.connections).toBe(16);
});

test('Range header and the exact Content-Range check', () => {
	expect(rangeHeader(10, 20)).toBe('bytes=10-19');
	expect(isExactRange('bytes 10-19/100', 10, 20, 100)).toBe(true);
	expect(isExactRange('bytes 11-20/100', 10, 20, 100)).toBe(false);
	expect(isExactRange('bytes 10-19/101', 10, 20, 100)).toBe(false);
	expect(isExactRange('bytes 10-29/100', 10, 20, 100)).toBe(false);
	expect(isExactRange(undefined, 10, 20, 100)).toBe(false);
	expect(isExactRange('bytes */100', 10, 20, 100)).toBe(false);
});

test('the first round ramps up, so that the connections finish one after another', () => {
	const plan = planSegments(1024 * MiB, 4)!;
	expect(
		segmentsOf(plan)
			.slice(0, 5)
			.map((x) => (x.end - x.start) / MiB),
	).toEqual([4, 8, 12, 16, 16]);
	const eight = planSegments(1024 * MiB, 8)!;
	expect(
		segmentsOf(eight)
			.slice(0, 9)
			.map((x) => (x.end - x.start) / MiB),
	).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 8]);
	const sixteen = planSegments(1024 * MiB, 16)!;
	expect(
		segmentsOf(sixteen)
			.slice(0, 4)
			.map((x) => x.end - x.start),
	).toEqual([MiB, MiB, MiB, MiB]);
	expect(segmentsOf(sixteen)[15].end - segmentsOf(sixteen)[15].start).toBe(4 * MiB);
});

test('a segment answer: its exact range is used, a 200 means ranges are ignored, anything else is retried', () => {
	expect(segmentAnswer(206, 'bytes 10-19/100', 10, 20, 100)).toBe('ok');
	expect(segmentAnswer(200, undefined, 10, 20, 100)).toBe('ignored');
	expect(segmentAnswer(206, 'bytes 10-29/100', 10, 20, 100)).toBe(
		'storage answered bytes 10-19 with bytes 10-29/100',
	);
	expect(segmentAnswer(503, undefined, 10, 20, 100)).toBe(
		'storage answered bytes 10-19 with HTTP 503 and no range',
	);
});

test('lazy: each segment is computed on demand, the same as tiling the file in order', () => {
	for (const connections of [2, 4, 8, 16])
		for (const total of [16 * MiB + 1, 9 * MiB, 100 * MiB - 3]) {
			const plan = planSegments(total, connections);
			if (!plan) continue;
			// The same segment asked twice, or out of order, is the same.
			expect(plan.segmentAt(plan.count - 1)).toEqual(segmentsOf(plan)[plan.count - 1]);
			expect(plan.segmentAt(0)).toEqual(plan.segmentAt(0));
		}
});

test('a 1 TiB file (the size ceiling): counted and planned without allocating a segment list', () => {
	const TiB = 2 ** 40;
	const plan = planSegments(TiB, 16)!;
	// 15 ramp segments (1, 1, 1, 1, 1.25, ... 3.75 MiB: 31.5 MiB), then 4 MiB segments to the end.
	expect(plan.segmentAt(15)).toEqual({ index: 15, start: 31.5 * MiB, end: 35.5 * MiB });
	expect(plan.count).toBe(15 + Math.ceil((TiB - 31.5 * MiB) / (4 * MiB)));
	expect(plan.segmentAt(plan.count - 1).end).toBe(TiB);
	expect(plan.segmentAt(plan.count - 2).end).toBe(plan.segmentAt(plan.count - 1).start);
	// The plan holds numbers and one function, nothing sized by the file.
	expect(Object.values(plan).every((v) => typeof v !== 'object')).toBe(true);
});
