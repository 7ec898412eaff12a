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

describe('one process, headers given by hand', () => {
	let pacer: PacingModule;
	let windowMs = 60_000;
	const rate = (requestsPerWindow: number) => ({ requestsPerWindow, rateWindowMs: windowMs });
	beforeEach(() => {
		pacer = freshPacer();
		windowMs = 60_000;
	});
	const headers = (limit: number, remaining: number, resetAt: number) => ({
		'x-ratelimit-limit': String(limit),
		'x-ratelimit-remaining': String(remaining),
		'x-ratelimit-reset': seconds(resetAt),
	});

	test("the server allowance decides, not this process's own count", async () => {
		// Own count: one a minute. The server says 100 are left: the next requests go at once.
		(await pacer.pace('key-srv-a', rate(1)))(headers(100, 100, Date.now() + 60_000));
		const started = Date.now();
		for (let i = 0; i < 5; i++)
			(await pacer.pace('key-srv-a', rate(1)))(headers(100, 99 - i, Date.now() + 60_000));
		expect(Date.now() - started).toBeLessThan(200);
	});

	test('with nothing left, it waits for the Reset the server gave (spread by under 0.4 s), then sends one request to ask again', async () => {
		const reset = Math.ceil((Date.now() + 1200) / 1000) * 1000;
		(await pacer.pace('key-srv-b', rate(1000)))(headers(100, 0, reset));
		const started = Date.now();
		const release = await pacer.pace('key-srv-b', rate(1000));
		expect(Date.now()).toBeGreaterThanOrEqual(reset);
		expect(Date.now() - started).toBeLessThan(reset - started + 600);
		// While that one is out, nobody else goes on the old view.
		let second: (() => void) | undefined;
		const waiting = pacer.pace('key-srv-b', rate(1000)).then((r) => (second = r));
		await new Promise((r) => setTimeout(r, 200));
		expect(second).toBeUndefined();
		release(headers(100, 50, Date.now() + 60_000));
		await waiting;
		second?.();
	});

	test('at the reserve, its own request leaving the window is the signal (before a later Reset)', async () => {
		windowMs = 400;
		// Sent now, answered with "only the reserve left, next growth in 30 s": our own request
		// leaves the 0.4 s window long before, and that freed slot is ours to use.
		(await pacer.pace('key-srv-f', rate(1000)))(headers(100, reserveFor(100), Date.now() + 30_000));
		const started = Date.now();
		(await pacer.pace('key-srv-f', rate(1000)))();
		expect(Date.now() - started).toBeGreaterThanOrEqual(400);
		expect(Date.now() - started).toBeLessThan(2000);
	});

	test('a request answered where no allowance is reported (the key used on another endpoint) frees no slot of the account', async () => {
		windowMs = 400;
		(await pacer.pace('key-srv-g', rate(1000)))();
		await new Promise((r) => setTimeout(r, 200));
		// At the reserve, long before the server's Reset: only a request the server counted frees a slot.
		(await pacer.pace('key-srv-g', rate(1000)))(headers(100, reserveFor(100), Date.now() + 30_000));
		const counted = Date.now();
		(await pacer.pace('key-srv-g', rate(1000)))();
		// The counted request's slot (its response + the window + 250 ms of slack), not the first one's, 200 ms earlier.
		expect(Date.now() - counted).toBeGreaterThanOrEqual(400 + 250 - 10);
	});

	test('requests still in flight count against the last view', async () => {
		const reserve = reserveFor(100);
		(await pacer.pace('key-srv-c', rate(1000)))(headers(100, reserve + 3, Date.now() + 30_000));
		const out = [
			await pacer.pace('key-srv-c', rate(1000)),
			await pacer.pace('key-srv-c', rate(1000)),
			await pacer.pace('key-srv-c', rate(1000)),
		];
		let fourth: unknown;
		void pacer.pace('key-srv-c', rate(1000), AbortSignal.timeout(300)).then(
			(r) => (fourth = r),
			() => (fourth = 'aborted'),
		);
		await new Promise((r) => setTimeout(r, 400));
		expect(fourth).toBe('aborted');
		out.forEach((release) => release());
	});

	test('without headers, its own count paces (the fallback)', async () => {
		windowMs = 400;
		const started = Date.now();
		for (let i = 0; i < 3; i++) (await pacer.pace('key-srv-d', rate(2)))();
		expect(Date.now() - started).toBeGreaterThanOrEqual(400);
	});
});

describe('three processes on one account, against the simulator', () => {
	const LIMIT = 40;
	// A short window, so the test is quick; X-RateLimit-Reset is whole seconds, so waiting for it
	// costs up to a second per window here (under 2 % of GridBank's real one-minute window).
	const WINDOW_MS = 3000;
	const RUN_MS = 9000;
	let sim: Simulator;

	afterEach(async () => {
		await sim?.close();
	});

	/** Each process sends requests back to back through its own pacer for RUN_MS. */
	async function run(headers: boolean) {
		sim = await startSimulator({
			partnerRatePerMinute: LIMIT,
			rateWindowMs: WINDOW_MS,
			partnerRateLimitHeaders: headers,
		});
		const url = `${sim.baseUrl}/partner/v1/content?per_page=1`;
		const pacers = [freshPacer(), freshPacer(), freshPacer()];
		const started = Date.now();
		const processes = pacers.map(async (pacer) => {
			const statuses: number[] = [];
			while (Date.now() - started < RUN_MS) {
				const release = await pacer.pace(DEMO_PARTNER_KEY, {
					requestsPerWindow: LIMIT,
					rateWindowMs: WINDOW_MS,
				});
				const res = await fetch(url, {
					headers: { authorization: `Bearer ${DEMO_PARTNER_KEY}`, 'user-agent': 'pacing-test' },
				});
				await res.arrayBuffer();
				release(Object.fromEntries(res.headers));
				statuses.push(res.status);
				if (res.status === 429)
					await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after')) * 1000));
			}
			return statuses;
		});
		const statuses = (await Promise.all(processes)).flat();
		const elapsed = Date.now() - started;

		return {
			ok: statuses.filter((s) => s === 200).length,
			refused: statuses.filter((s) => s === 429).length,
			elapsed,
		};
	}

	test("with X-RateLimit-* headers: no 429, and most of the account's allowance used", async () => {
		const { ok, refused, elapsed } = await run(true);
		expect(refused).toBe(0);
		// The allowance over the run: LIMIT per window.
		const allowance = LIMIT * (elapsed / WINDOW_MS);
		expect(ok / allowance).toBeGreaterThanOrEqual(0.7);
	}, 20_000);

	test('without them, each process keeps only its own count: together they overrun the account and earn 429s', async () => {
		const { refused } = await run(false);
		expect(refused).toBeGreaterThan(0);
	}, 20_000);
});
