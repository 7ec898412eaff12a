// The per-key pacer on its own: a request holds its slot while in flight and is dated by its
// response, so a request that was slow to arrive can never make the window overflow.
import { pace } from '../../../../nodes/shared/transport/pacing';

const WINDOW = 300;
const MARGIN = 250;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `requests` per WINDOW. */
const rate = (requests: number) => ({ requestsPerWindow: requests, rateWindowMs: WINDOW });

test('requests within the allowance go at once', async () => {
	const started = Date.now();
	const done = [
		await pace('key-a', rate(3)),
		await pace('key-a', rate(3)),
		await pace('key-a', rate(3)),
	];
	expect(Date.now() - started).toBeLessThan(50);
	done.forEach((release) => release());
});

test('a request in flight keeps its slot past the window, and counts from its response', async () => {
	const first = await pace('key-b', rate(2));
	const second = await pace('key-b', rate(2));
	let third: (() => void) | undefined;
	const waiting = pace('key-b', rate(2)).then((release) => (third = release));

	await wait(WINDOW + MARGIN + 150);
	expect(third).toBeUndefined();

	const responded = Date.now();
	first();
	await waiting;
	// The first request's slot frees one window (plus slack) after its response, not its send.
	expect(Date.now() - responded).toBeGreaterThanOrEqual(WINDOW + MARGIN - 10);
	second();
	third?.();
});

test('keys are paced independently', async () => {
	const held = await pace('key-c', rate(1));
	const started = Date.now();
	const other = await pace('key-d', rate(1));
	expect(Date.now() - started).toBeLessThan(50);
	held();
	other();
});

test('a cancelled wait stops waiting', async () => {
	const held = await pace('key-e', rate(1));
	const controller = new AbortController();
	const waiting = pace('key-e', rate(1), controller.signal);
	controller.abort(new Error('stopped'));
	await expect(waiting).rejects.toThrow('stopped');
	held();
});
