// Both triggers' per-video failure counts (pure): bounded, dropped once a video is no longer pending.
import {
	countFailures,
	FAILED_POLLS_LIMIT,
	MAX_TRACKED_FAILURES,
	readFailures,
	repeatedFailureMessage,
	savedFailures,
} from '../../../../nodes/shared/trigger/failing-videos';

test('a failure counts up to the limit, then the video is exhausted and forgotten', () => {
	let counts: Map<string, number> = new Map();
	for (let poll = 1; poll < FAILED_POLLS_LIMIT; poll++) {
		const counted = countFailures(counts, ['v'], new Set(['v']));
		expect(counted.exhausted.size).toBe(0);
		expect([...counted.next]).toEqual([['v', poll]]);
		counts = counted.next;
	}
	const last = countFailures(counts, ['v'], new Set(['v']));
	expect([...last.exhausted]).toEqual(['v']);
	expect(last.next.size).toBe(0);
});

test('counts of videos no longer pending are dropped; others stay as they were', () => {
	const previous = new Map([
		['gone', 1],
		['waiting', 1],
	]);
	const counted = countFailures(previous, [], new Set(['waiting']));
	expect([...counted.next]).toEqual([['waiting', 1]]);
});

test(`at most ${MAX_TRACKED_FAILURES} videos are remembered, saved or read back`, () => {
	const keys = Array.from({ length: MAX_TRACKED_FAILURES + 50 }, (_, i) => `v${i}`);
	const counted = countFailures(new Map(), keys, new Set(keys));
	expect(counted.next.size).toBe(MAX_TRACKED_FAILURES);
	const saved = Object.fromEntries(keys.map((key) => [key, 1]));
	expect(readFailures(saved).size).toBe(MAX_TRACKED_FAILURES);
	expect(readFailures(savedFailures(counted.next)).size).toBe(MAX_TRACKED_FAILURES);
});

test('saved counts that are not small whole numbers are ignored', () => {
	const read = readFailures({ a: 1, b: 'x', c: -1, d: 1.5, e: FAILED_POLLS_LIMIT, f: 1e9 });
	expect([...read]).toEqual([['a', 1]]);
	expect(readFailures(null).size).toBe(0);
	expect(readFailures(['a']).size).toBe(0);
	expect(readFailures([['a', 1], ['b'], [3, 1], ['x'.repeat(51), 1]]).size).toBe(1);
});

test('ids that are object members are ordinary keys, in counts, saved form and what is read back', () => {
	const ids = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
	let counts: Map<string, number> = new Map();
	for (let poll = 1; poll < FAILED_POLLS_LIMIT; poll++) {
		const counted = countFailures(counts, ids, new Set(ids));
		expect(counted.exhausted.size).toBe(0);
		counts = readFailures(JSON.parse(JSON.stringify(savedFailures(counted.next))));
		expect([...counts.values()]).toEqual(ids.map(() => poll));
	}
	expect([...countFailures(counts, ids, new Set(ids)).exhausted]).toEqual(ids);
	// As an earlier version saved them (a plain object from JSON).
	expect([...readFailures(JSON.parse('{"__proto__": 1, "constructor": 2}'))]).toEqual([
		['__proto__', 1],
		['constructor', 2],
	]);
});

test('the message of a repeated failure says what and how often, never "try again"', () => {
	const message = repeatedFailureMessage("GridBank's storage sent an empty file.");
	expect(message).toMatch(/^GridBank's storage sent an empty file: the same failure on \d polls/);
	expect(message).not.toMatch(/try again/i);
});
