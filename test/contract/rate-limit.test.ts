/** Contract: the Partner rate limit is per ACCOUNT (all keys share it), with Retry-After in seconds. */
import { DEMO_PARTNER_KEY, startSimulator, type Simulator } from '../simulator';
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
	for (const key of [acct.key, second, acct.key, second, acct.key]) statuses.push((await call(content(), { key })).status);
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
	for (let i = 0; i < 5; i++) expect((await call(i % 2 ? url : content(), { key: acct.key })).status).toBe(200);
	expect((await call(url, { key: acct.key })).status).toBe(429);
});

test('defaults: 300 per minute, 0 = unlimited', async () => {
	const unlimited = await startSimulator({ partnerRatePerMinute: 0 });
	const defaults = await startSimulator({ now: () => clock });
	try {
		const burst = (base: string, n: number) =>
			Promise.all(Array.from({ length: n }, () => call(`${base}/partner/v1/content?per_page=1`, { key: DEMO_PARTNER_KEY })));
		expect((await burst(unlimited.baseUrl, 320)).every((r) => r.status === 200)).toBe(true);
		const statuses = (await burst(defaults.baseUrl, 301)).map((r) => r.status);
		expect(statuses.filter((s) => s === 200)).toHaveLength(300);
		expect(statuses.filter((s) => s === 429)).toHaveLength(1);
	} finally {
		await unlimited.close();
		await defaults.close();
	}
});
