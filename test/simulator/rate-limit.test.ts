/** Contract: the Partner rate limit is per ACCOUNT (all keys share it), with Retry-After in seconds. */
import { DEMO_PARTNER_KEY, startSimulator, type Simulator } from '../../simulator';
import { call, code, header } from './helpers';

let sim: Simulator;
let clock = Date.UTC(2025, 0, 10, 9, 0, 0);

beforeAll(async () => {
	sim = await startSimulator({ now: () => clock, partnerRatePerMinute: 5, rateWindowMs: 2000 });
});
afterAll(async () => {
	await sim.close();
});
beforeEach(() => sim.reset());

const content = () => `${sim.baseUrl}/partner/v1/content?per_page=1`;

test('two keys of one account share one allowance; 429 envelope with Retry-After seconds', async () => {
	const acct = sim.createPartnerAccount({ licences: 3 });
	const second = sim.addPartnerKey(acct.key);
	const statuses = [];
	for (const key of [acct.key, second, acct.key, second, acct.key])
		statuses.push((await call(content(), { key })).status);
	expect(statuses).toEqual([200, 200, 200, 200, 200]);
	const r = await call(content(), { key: second });
	expect(r.status).toBe(429);
	expect(code(r)).toBe('rate_limit_exceeded');
	expect(header(r, 'retry-after')).toBe('2');
	expect((await call(content(), { key: acct.key })).status).toBe(429);
	// Another account is not affected.
	expect((await call(content(), { key: DEMO_PARTNER_KEY })).status).toBe(200);
});

test('the window slides with the injected clock', async () => {
	const acct = sim.createPartnerAccount({ licences: 1 });
	for (let i = 0; i < 5; i++) {
		expect((await call(content(), { key: acct.key })).status).toBe(200);
		clock += 300; // five requests spread over 1.2 s
	}
	expect((await call(content(), { key: acct.key })).status).toBe(429);
	clock += 1000 - 300 + 1; // the first request is now older than the 2 s window
	expect((await call(content(), { key: acct.key })).status).toBe(200);
	expect((await call(content(), { key: acct.key })).status).toBe(429);
});

test('downloads count against the same allowance as the list', async () => {
	const acct = sim.createPartnerAccount({ licences: 1 });
	const [video] = sim.partnerLicences(acct.key);
	const url = `${sim.baseUrl}/partner/v1/videos/${encodeURIComponent(video!.video_key)}/download`;
	for (let i = 0; i < 5; i++)
		expect((await call(i % 2 ? url : content(), { key: acct.key })).status).toBe(200);
	expect((await call(url, { key: acct.key })).status).toBe(429);
});

test('defaults: 300 per minute, 0 = unlimited', async () => {
	const unlimited = await startSimulator({ partnerRatePerMinute: 0 });
	const defaults = await startSimulator({ now: () => clock });
	try {
		const burst = (base: string, n: number) =>
			Promise.all(
				Array.from({ length: n }, () =>
					call(`${base}/partner/v1/content?per_page=1`, { key: DEMO_PARTNER_KEY }),
				),
			);
		expect((await burst(unlimited.baseUrl, 320)).every((r) => r.status === 200)).toBe(true);
		const statuses = (await burst(defaults.baseUrl, 301)).map((r) => r.status);
		expect(statuses.filter((s) => s === 200)).toHaveLength(300);
		expect(statuses.filter((s) => s === 429)).toHaveLength(1);
	} finally {
		await unlimited.close();
		await defaults.close();
	}
});

describe('X-RateLimit-* headers on Partner responses', () => {
	test('every authenticated response, 429 included: the account-wide limit, what is left, and when it next grows', async () => {
		const acct = sim.createPartnerAccount({ licences: 1 });
		const second = sim.addPartnerKey(acct.key);
		const first = await call(content(), { key: acct.key });
		expect(header(first, 'x-ratelimit-limit')).toBe('5');
		expect(header(first, 'x-ratelimit-remaining')).toBe('4');
		// The oldest counted request is this one: it leaves the 2 s window at clock + 2000 (Unix seconds, rounded up).
		expect(header(first, 'x-ratelimit-reset')).toBe(String(Math.ceil((clock + 2000) / 1000)));
		clock += 500;
		// Another key of the same account sees the same count.
		const other = await call(content(), { key: second });
		expect(header(other, 'x-ratelimit-remaining')).toBe('3');
		expect(header(other, 'x-ratelimit-reset')).toBe(String(Math.ceil((clock - 500 + 2000) / 1000)));
		for (let i = 0; i < 3; i++) await call(content(), { key: acct.key });
		const refused = await call(content(), { key: acct.key });
		expect(refused.status).toBe(429);
		expect(header(refused, 'x-ratelimit-remaining')).toBe('0');
		expect(header(refused, 'x-ratelimit-limit')).toBe('5');
		expect(Number(header(refused, 'x-ratelimit-reset'))).toBeGreaterThanOrEqual(clock / 1000);
	});

	test('a 403, 404 or 422 after the rate check carries them too; a 401 does not', async () => {
		const acct = sim.createPartnerAccount({ licences: 1 });
		const missing = await call(`${sim.baseUrl}/partner/v1/videos/no-such-video-zz/download`, {
			key: acct.key,
		});
		expect(missing.status).toBe(404);
		expect(header(missing, 'x-ratelimit-remaining')).toBe('4');
		const invalid = await call(`${sim.baseUrl}/partner/v1/content?per_page=500`, { key: acct.key });
		expect(invalid.status).toBe(422);
		expect(header(invalid, 'x-ratelimit-remaining')).toBe('3');
		const unauth = await call(content(), { key: 'apik_nope.not-a-real-secret-0000' });
		expect(unauth.status).toBe(401);
		expect(header(unauth, 'x-ratelimit-limit')).toBeUndefined();
	});

	test('partnerRateLimitHeaders: false sends only Retry-After', async () => {
		const bare = await startSimulator({
			now: () => clock,
			partnerRatePerMinute: 1,
			rateWindowMs: 2000,
			partnerRateLimitHeaders: false,
		});
		try {
			const ok = await call(`${bare.baseUrl}/partner/v1/content?per_page=1`, {
				key: DEMO_PARTNER_KEY,
			});
			expect(ok.status).toBe(200);
			expect(header(ok, 'x-ratelimit-remaining')).toBeUndefined();
			const refused = await call(`${bare.baseUrl}/partner/v1/content?per_page=1`, {
				key: DEMO_PARTNER_KEY,
			});
			expect(refused.status).toBe(429);
			expect(header(refused, 'retry-after')).toBe('2');
			expect(header(refused, 'x-ratelimit-remaining')).toBeUndefined();
		} finally {
			await bare.close();
		}
	});
});
