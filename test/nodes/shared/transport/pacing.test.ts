// The per-key pacer on its own: a request holds its slot while in flight and is dated by its
// response, so a request that was slow to arrive can never make the window overflow.
// On a fake clock (Date.now and the pacer's timers), so no wait depends on the machine's speed.
import { pace } from '../../../../nodes/shared/transport/pacing';
import { settledWithin } from '../../../harness/fake-clock';

const WINDOW = 300;
/** `requests` per WINDOW. */
const rate = (requests: number) => ({ requestsPerWindow: requests, rateWindowMs: WINDOW });
const MARGIN = 250;

beforeEach(() => {
	jest.useFakeTimers({ now: Date.UTC(2025, 0, 1) });
});
afterEach(() => jest.useRealTimers());

test('requests within the allowance go at once', async () => {
	const done = [pace('key-a', rate(3)), pace('key-a', rate(3)), pace('key-a', rate(3))];
	expect(await settledWithin(0, Promise.all(done))).toBe(true);
	(await Promise.all(done)).forEach((release) => release());
});

test('a request in flight keeps its slot past the window, and counts from its response', async () => {
	const first = await pace('key-b', rate(2));
	const second = await pace('key-b', rate(2));
	const third = pace('key-b', rate(2));

	expect(await settledWithin(WINDOW + MARGIN + 150, third)).toBe(false);

	first();
	// The first request's slot frees one window (plus slack) after its response, not its send.
	expect(await settledWithin(WINDOW + MARGIN - 1, third)).toBe(false);
	expect(await settledWithin(2, third)).toBe(true);
	second();
	(await third)();
});

test('keys are paced independently', async () => {
	const held = await pace('key-c', rate(1));
	const other = pace('key-d', rate(1));
	expect(await settledWithin(0, other)).toBe(true);
	held();
	(await other)();
});

test('a cancelled wait stops waiting', async () => {
	const held = await pace('key-e', rate(1));
	const controller = new AbortController();
	const waiting = pace('key-e', rate(1), controller.signal);
	controller.abort(new Error('stopped'));
	await expect(waiting).rejects.toThrow('stopped');
	held();
});
