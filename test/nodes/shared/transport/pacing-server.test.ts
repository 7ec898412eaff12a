// The pacer with the server's X-RateLimit-* headers: the server's count (which includes every
// other process on the account) decides; without headers, this process's own count does.
// Several "processes" are separate copies of the pacing module (jest.isolateModules), each with
// its own memory, sharing one account on the real simulator.
import { DEMO_PARTNER_KEY, startSimulator, type Simulator } from '../../../../simulator';
import {
	readAllowance,
	reserveFor,
	ServerAllowance,
} from '../../../../nodes/shared/transport/server-allowance';
import { settledWithin } from '../../../harness/fake-clock';

type PacingModule = typeof import('../../../../nodes/shared/transport/pacing');

function freshPacer(): PacingModule {
	let mod: PacingModule | undefined;
	jest.isolateModules(() => {
		mod = jest.requireActual<PacingModule>('../../../../nodes/shared/transport/pacing');
	});
	return mod as PacingModule;
}

const seconds = (ms: number) => String(Math.ceil(ms / 1000));

describe('readAllowance', () => {
	const now = Date.UTC(2025, 0, 1);
	test('all three headers, any case, Reset in Unix seconds', () => {
		expect(
			readAllowance(
				{
					'x-ratelimit-limit': '300',
					'x-ratelimit-remaining': '12',
					'x-ratelimit-reset': seconds(now + 4000),
				},
				now,
			),
		).toEqual({
			limit: 300,
			remaining: 12,
			resetAt: now + 4000,
		});
		expect(
			readAllowance(
				{ 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '3' },
				now,
			),
		).toEqual({
			limit: 5,
			remaining: 0,
			resetAt: now + 3000,
		});
	});
	test('a missing or garbled header means no server view', () => {
		expect(
			readAllowance({ 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '12' }, now),
		).toBeUndefined();
		expect(
			readAllowance(
				{ 'x-ratelimit-limit': '0', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' },
				now,
			),
		).toBeUndefined();
		expect(
			readAllowance(
				{ 'x-ratelimit-limit': 'lots', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '1' },
				now,
			),
		).toBeUndefined();
		expect(
			readAllowance(
				{ 'x-ratelimit-limit': '9', 'x-ratelimit-remaining': '-1', 'x-ratelimit-reset': '1' },
				now,
			),
		).toBeUndefined();
		expect(readAllowance(undefined, now)).toBeUndefined();
	});
	test('a Remaining above the Limit is read as the Limit', () => {
		expect(
			readAllowance(
				{ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '50', 'x-ratelimit-reset': '1' },
				now,
			)?.remaining,
		).toBe(5);
	});
});

describe('which answers show a request the server counted', () => {
	const allowance = {
		'x-ratelimit-limit': '300',
		'x-ratelimit-remaining': '0',
		'x-ratelimit-reset': '5',
	};
	test('an answer with the allowance: counted', () => {
		expect(new ServerAllowance().answered(allowance)).toBe(true);
	});
	test('a refusal (Retry-After), no allowance, or no answer at all: not counted', () => {
		expect(new ServerAllowance().answered({ ...allowance, 'Retry-After': '5' })).toBe(false);
		expect(new ServerAllowance().answered({ 'content-type': 'application/json' })).toBe(false);
		expect(new ServerAllowance().answered(undefined)).toBe(false);
	});
});

// On a fake clock (Date.now and the pacer's timers): each wait is asserted to the millisecond
// of the pacer's own arithmetic, and a loaded machine cannot stretch or shorten one.
describe('one process, headers given by hand (fake clock)', () => {
	let pacer: PacingModule;
	let windowMs = 60_000;
	const rate = (requestsPerWindow: number) => ({ requestsPerWindow, rateWindowMs: windowMs });
	beforeEach(() => {
		jest.useFakeTimers({ now: Date.UTC(2025, 0, 1, 0, 0, 0, 300) });
		pacer = freshPacer();
		windowMs = 60_000;
	});
	afterEach(() => jest.useRealTimers());
	const headers = (limit: number, remaining: number, resetAt: number) => ({
		'x-ratelimit-limit': String(limit),
		'x-ratelimit-remaining': String(remaining),
		'x-ratelimit-reset': seconds(resetAt),
	});

	test("the server allowance decides, not this process's own count", async () => {
		// Own count: one a minute. The server says 100 are left: the next requests go at once.
		(await pacer.pace('key-srv-a', rate(1)))(headers(100, 100, Date.now() + 60_000));
		for (let i = 0; i < 5; i++) {
			const next = pacer.pace('key-srv-a', rate(1));
			expect(await settledWithin(0, next)).toBe(true);
			(await next)(headers(100, 99 - i, Date.now() + 60_000));
		}
	});

	test('with nothing left, it waits for the Reset the server gave (spread by under 0.4 s), then sends one request to ask again', async () => {
		const reset = Math.ceil((Date.now() + 1200) / 1000) * 1000;
		(await pacer.pace('key-srv-b', rate(1000)))(headers(100, 0, reset));
		const asking = pacer.pace('key-srv-b', rate(1000));
		expect(await settledWithin(reset - Date.now() - 1, asking)).toBe(false);
		expect(await settledWithin(400 + 1, asking)).toBe(true);
		const release = await asking;
		// While that one is out, nobody else goes on the old view.
		const second = pacer.pace('key-srv-b', rate(1000));
		expect(await settledWithin(5000, second)).toBe(false);
		release(headers(100, 50, Date.now() + 60_000));
		expect(await settledWithin(100, second)).toBe(true);
		(await second)();
	});

	test('at the reserve, its own request leaving the window is the signal (before a later Reset)', async () => {
		windowMs = 400;
		// Sent now, answered with "only the reserve left, next growth in 30 s": our own request
		// leaves the 0.4 s window long before, and that freed slot is ours to use.
		(await pacer.pace('key-srv-f', rate(1000)))(headers(100, reserveFor(100), Date.now() + 30_000));
		const next = pacer.pace('key-srv-f', rate(1000));
		expect(await settledWithin(400 - 1, next)).toBe(false);
		expect(await settledWithin(2000, next)).toBe(true);
		(await next)();
	});

	test('a request answered where no allowance is reported (the key used on another endpoint) frees no slot of the account', async () => {
		windowMs = 400;
		(await pacer.pace('key-srv-g', rate(1000)))();
		await jest.advanceTimersByTimeAsync(200);
		// At the reserve, long before the server's Reset: only a request the server counted frees a slot.
		(await pacer.pace('key-srv-g', rate(1000)))(headers(100, reserveFor(100), Date.now() + 30_000));
		// The counted request's slot (its response + the window + 250 ms of slack), not the first one's, 200 ms earlier.
		const next = pacer.pace('key-srv-g', rate(1000));
		expect(await settledWithin(400 + 250 - 1, next)).toBe(false);
		expect(await settledWithin(2000, next)).toBe(true);
		(await next)();
	});

	test('requests still in flight count against the last view', async () => {
		const reserve = reserveFor(100);
		(await pacer.pace('key-srv-c', rate(1000)))(headers(100, reserve + 3, Date.now() + 30_000));
		const out = [
			await pacer.pace('key-srv-c', rate(1000)),
			await pacer.pace('key-srv-c', rate(1000)),
			await pacer.pace('key-srv-c', rate(1000)),
		];
		const cancel = new AbortController();
		const fourth = pacer.pace('key-srv-c', rate(1000), cancel.signal);
		expect(await settledWithin(10_000, fourth)).toBe(false);
		cancel.abort(new Error('cancelled'));
		await expect(fourth).rejects.toThrow('cancelled');
		out.forEach((release) => release());
	});

	test('without headers, its own count paces (the fallback)', async () => {
		windowMs = 400;
		for (let i = 0; i < 2; i++) (await pacer.pace('key-srv-d', rate(2)))();
		const third = pacer.pace('key-srv-d', rate(2));
		expect(await settledWithin(400 - 1, third)).toBe(false);
		expect(await settledWithin(2000, third)).toBe(true);
		(await third)();
	});
});

// The real simulator and the real clock, so each assertion is about counts, never about speed:
// a fixed number of requests per process, far more than the account allows in one window, and
// a window long enough that even a machine slowed many times over sends them inside it.
describe('three processes on one account, against the simulator', () => {
	const LIMIT = 20;
	const WINDOW_MS = 5000;
	let sim: Simulator;

	afterEach(async () => {
		await sim?.close();
	});

	/** Each process sends `perProcess` requests back to back through its own pacer. */
	async function run(headers: boolean, perProcess: number) {
		sim = await startSimulator({
			partnerRatePerMinute: LIMIT,
			rateWindowMs: WINDOW_MS,
			partnerRateLimitHeaders: headers,
		});
		const url = `${sim.baseUrl}/partner/v1/content?per_page=1`;
		const pacers = [freshPacer(), freshPacer(), freshPacer()];
		const processes = pacers.map(async (pacer) => {
			const answers: { status: number; remaining: number }[] = [];
			for (let i = 0; i < perProcess; i++) {
				const release = await pacer.pace(DEMO_PARTNER_KEY, {
					requestsPerWindow: LIMIT,
					rateWindowMs: WINDOW_MS,
				});
				const res = await fetch(url, {
					headers: { authorization: `Bearer ${DEMO_PARTNER_KEY}`, 'user-agent': 'pacing-test' },
				});
				await res.arrayBuffer();
				release(Object.fromEntries(res.headers));
				const remaining = Number(res.headers.get('x-ratelimit-remaining') ?? NaN);
				answers.push({ status: res.status, remaining });
			}
			return answers;
		});
		return (await Promise.all(processes)).flat();
	}

	test("with X-RateLimit-* headers: no 429, and the account's allowance used down to its reserve", async () => {
		// 30 requests against 20 a window: the pacers must wait for the allowance to grow.
		const answers = await run(true, 10);
		expect(answers.filter((a) => a.status === 429)).toHaveLength(0);
		expect(answers.filter((a) => a.status === 200)).toHaveLength(30);
		// They went on while the server showed room, not only on their own count: somewhere the
		// account was down to its reserve (plus what the other two processes had in flight).
		const lowest = Math.min(...answers.map((a) => a.remaining));
		expect(lowest).toBeLessThanOrEqual(reserveFor(LIMIT) + 2);
	});

	test('without them, each process keeps only its own count: together they overrun the account and earn 429s', async () => {
		// Each process's own count allows all of its 19; the three together send 57 at an account of 20.
		const answers = await run(false, LIMIT - 1);
		expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
	});
});
