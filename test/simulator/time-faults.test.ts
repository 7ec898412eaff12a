/** Contract: the time hardening fault switches (time-faults.ts) do what their doc says. */
import {
	DEMO_ENTERPRISE_KEY,
	DEMO_PARTNER_KEY,
	startSimulator,
	type Simulator,
} from '../../simulator';
import { call, header } from './helpers';

let sim: Simulator;
let clock = Date.UTC(2026, 0, 1, 12);

beforeAll(async () => {
	sim = await startSimulator({ now: () => clock });
});
afterAll(async () => {
	await sim.close();
});
beforeEach(() => sim.reset());

const list = (query = 'per_page=2') =>
	call(`${sim.baseUrl}/partner/v1/content?${query}`, { key: DEMO_PARTNER_KEY });

test('rateHeaders: the next matching responses carry the given X-RateLimit-* values, then the real ones', async () => {
	sim.faults.rateHeaders({ remaining: 0, resetInSeconds: 3600, path: '/content' }, 2);
	for (let i = 0; i < 2; i++) {
		const r = await list();
		expect(r.status).toBe(200);
		expect(header(r, 'x-ratelimit-limit')).toBe('300');
		expect(header(r, 'x-ratelimit-remaining')).toBe('0');
		expect(header(r, 'x-ratelimit-reset')).toBe(String(clock / 1000 + 3600));
	}
	const real = await list();
	expect(header(real, 'x-ratelimit-remaining')).toBe('297');
	expect(header(real, 'x-ratelimit-reset')).toBe(String(clock / 1000 + 60));
});

test('rateHeaders: a raw Reset value, on a failNext 429 with Retry-After and on Enterprise too', async () => {
	sim.faults.failNext({ status: 429, count: 1, retryAfter: '3', path: '/content' });
	sim.faults.rateHeaders({ reset: '1e12', limit: 5, remaining: 1 });
	const r = await list();
	expect(r.status).toBe(429);
	expect(header(r, 'retry-after')).toBe('3');
	expect(header(r, 'x-ratelimit-reset')).toBe('1e12');
	expect(header(r, 'x-ratelimit-limit')).toBe('5');
	expect(header(r, 'x-ratelimit-remaining')).toBe('1');
	sim.faults.rateHeaders({ resetInSeconds: -7200, path: '/external/' });
	const e = await call(`${sim.baseUrl}/external/v1/usage/me`, { key: DEMO_ENTERPRISE_KEY });
	expect(e.status).toBe(200);
	expect(header(e, 'x-ratelimit-reset')).toBe(String(clock / 1000 - 7200));
});

test('endlessPartnerList: every page has new videos purchased now and a fresh cursor; faults.clear() ends it', async () => {
	sim.faults.endlessPartnerList(true);
	const keys = new Set<string>();
	const cursors = new Set<string>();
	let cursor: string | undefined;
	for (let page = 0; page < 30; page++) {
		const r = await list(`per_page=100${cursor ? `&cursor=${cursor}` : ''}`);
		expect(r.status).toBe(200);
		expect(r.json.videos).toHaveLength(100);
		for (const v of r.json.videos) {
			expect(v.purchased_at).toBe(clock / 1000);
			keys.add(v.video_key);
		}
		cursor = r.json.next_cursor;
		expect(typeof cursor).toBe('string');
		cursors.add(cursor as string);
	}
	expect(keys.size).toBe(3000);
	expect(cursors.size).toBe(30);
	expect((await list('per_page=1&cursor=tampered.x')).status).toBe(400);
	sim.faults.clear();
	const first = await list('per_page=1');
	expect(first.json.videos[0].video_key).not.toMatch(/^endless/);
});
