// Pure: the storage rate rule with its real defaults (16 KiB/s averaged over 30 s), on a fake clock.
import { apiDeadline, LIMITS, RateWatch } from '../../../../nodes/shared/transport/deadlines';

/** Feeds `bytesPerSecond` for `seconds`, checking every second; the first verdict, if any. */
function run(
	watch: RateWatch,
	start: number,
	seconds: number,
	bytesPerSecond: (second: number) => number,
) {
	for (let s = 1; s <= seconds; s++) {
		watch.add(bytesPerSecond(s));
		const slow = watch.check(start + s * 1000);
		if (slow) return { second: s, slow };
	}
	return undefined;
}

test('the defaults: 16 KiB/s over 30 s; an API attempt has 30 s', () => {
	expect(LIMITS).toEqual({
		apiDeadlineMs: 30_000,
		storageMinBytesPerSecond: 16 * 1024,
		storageRateWindowMs: 30_000,
	});
	expect(apiDeadline(undefined).seconds).toBe(30);
});

test('a healthy slow link (200 KiB/s) never trips, over ten minutes', () => {
	expect(run(new RateWatch(0), 0, 600, () => 200 * 1024)).toBeUndefined();
});

test('a server dripping a byte every few seconds fails once the first 30 s are over', () => {
	const verdict = run(new RateWatch(0), 0, 120, (s) => (s % 5 === 0 ? 1 : 0));
	expect(verdict?.second).toBe(30);
	expect(verdict?.slow).toMatch(/below the minimum of 16 KiB\/s/);
});

test('nothing before a whole window, however slow', () => {
	expect(run(new RateWatch(0), 0, 29, () => 0)).toBeUndefined();
});

test('a fast start does not excuse a later stall: the window slides', () => {
	const verdict = run(new RateWatch(0), 0, 300, (s) => (s <= 60 ? 1024 * 1024 : 0));
	expect(verdict?.second).toBeGreaterThan(60);
	expect(verdict?.second).toBeLessThanOrEqual(91);
});

test('time the reader holds the body paused does not count against storage', () => {
	const watch = new RateWatch(0);
	watch.add(1024 * 1024);
	watch.hold();
	for (let s = 1; s <= 120; s++) expect(watch.check(s * 1000)).toBeUndefined();
	watch.release(120_000);
	expect(run(watch, 120_000, 29, () => 0)).toBeUndefined();
});

test('a release without a hold (every read of a flowing body) does not restart the window', () => {
	const watch = new RateWatch(0);
	for (let s = 1; s <= 29; s++) {
		watch.release(s * 1000);
		expect(watch.check(s * 1000)).toBeUndefined();
	}
	watch.release(30_000);
	expect(watch.check(30_000)).toMatch(/below the minimum/);
});

test('apiDeadline: its own expiry is told apart from a cancel', async () => {
	const cancel = new AbortController();
	const cancelled = apiDeadline(cancel.signal, 50);
	cancel.abort();
	expect(cancelled.signal.aborted).toBe(true);
	expect(cancelled.expired()).toBe(false);
	const timed = apiDeadline(new AbortController().signal, 20);
	await new Promise((resolve) => timed.signal.addEventListener('abort', resolve));
	expect(timed.expired()).toBe(true);
});
