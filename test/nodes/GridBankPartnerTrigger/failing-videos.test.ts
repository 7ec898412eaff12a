// The trigger's per-video failure counts (pure): bounded, dropped once a video is no longer pending.
import {
	countFailures,
	FAILED_POLLS_LIMIT,
	MAX_TRACKED_FAILURES,
	readFailures,
	repeatedFailureMessage,
} from '../../../nodes/shared/trigger/failing-videos';

test('a failure counts up to the limit, then the video is exhausted and forgotten', () => {
	let counts = {};
	for (let poll = 1; poll < FAILED_POLLS_LIMIT; poll++) {
		const counted = countFailures(counts, ['v'], new Set(['v']));
		expect(counted.exhausted.size).toBe(0);
		expect(counted.next).toEqual({ v: poll });
		counts = counted.next;
	}
	const last = countFailures(counts, ['v'], new Set(['v']));
	expect([...last.exhausted]).toEqual(['v']);
	expect(last.next).toEqual({});
});

test('counts of videos no longer pending are dropped; others stay as they were', () => {
	const counted = countFailures({ gone: 1, waiting: 1 }, [], new Set(['waiting']));
	expect(counted.next).toEqual({ waiting: 1 });
});

test(`at most ${MAX_TRACKED_FAILURES} videos are remembered, saved or read back`, () => {
	const keys = Array.from({ length: MAX_TRACKED_FAILURES + 50 }, (_, i) => `v${i}`);
	const counted = countFailures({}, keys, new Set(keys));
	expect(Object.keys(counted.next)).toHaveLength(MAX_TRACKED_FAILURES);
	const saved = Object.fromEntries(keys.map((key) => [key, 1]));
	expect(Object.keys(readFailures(saved))).toHaveLength(MAX_TRACKED_FAILURES);
});

test('saved counts that are not small whole numbers are ignored', () => {
	expect(readFailures({ a: 1, b: 'x', c: -1, d: 1.5, e: FAILED_POLLS_LIMIT, f: 1e9 })).toEqual({
		a: 1,
	});
	expect(readFailures(null)).toEqual({});
	expect(readFailures(['a'])).toEqual({});
});

test('the message of a repeated failure says what and how often, never "try again"', () => {
	const message = repeatedFailureMessage("GridBank's storage sent an empty file.");
	expect(message).toMatch(/^GridBank's storage sent an empty file: the same failure on \d polls/);
	expect(message).not.toMatch(/try again/i);
});
