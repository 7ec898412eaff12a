/** Contract: the Enterprise API as docs/gridbank-api.md describes it. */
import {
	DEMO_ENTERPRISE_KEY,
	DEMO_PARTNER_KEY,
	startSimulator,
	type Simulator,
} from '../../simulator';
import { call, header } from './helpers';

let sim: Simulator;
let clock = Date.UTC(2025, 5, 15, 8, 30, 0);
const KEY = DEMO_ENTERPRISE_KEY;

beforeAll(async () => {
	sim = await startSimulator({ now: () => clock });
});
afterAll(async () => {
	await sim.close();
});
beforeEach(() => sim.reset());

const api = (path: string) => `${sim.baseUrl}/external/v1${path}`;
const searchUrl = (q: Record<string, string | number>) =>
	api(
		`/videos/search?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]))}`,
	);
const METADATA_FIELDS = [
	'creator',
	'description',
	'duration',
	'height',
	'id',
	'keywords',
	'location',
	'thumbnail',
	'title',
	'url',
	'width',
];

/** Adds `n` videos only the word "zebraquartz" finds; returns their ids. */
function addZebra(n: number, extra: Array<Record<string, unknown>> = []): string[] {
	return sim.addEnterpriseVideos(
		Array.from({ length: n }, (_, i) => ({
			title: `Zebraquartz clip ${i}`,
			keywords: ['zebraquartz'],
			...extra[i],
		})),
	);
}

describe('authentication and edge', () => {
	test('missing token: 401 {"detail": string}', async () => {
		const r = await call(searchUrl({ q: 'ocean' }));
		expect(r.status).toBe(401);
		expect(typeof r.json.detail).toBe('string');
	});

	test('unknown token and a Partner key: 401', async () => {
		for (const key of ['ent_nope', DEMO_PARTNER_KEY]) {
			const r = await call(api('/usage/me'), { key });
			expect(r.status).toBe(401);
			expect(typeof r.json.detail).toBe('string');
			expect(r.text).not.toContain(key);
		}
	});

	test('revokeKey makes an Enterprise key answer 401', async () => {
		const { key } = sim.createEnterpriseAccount();
		expect((await call(api('/usage/me'), { key })).status).toBe(200);
		sim.faults.revokeKey(key);
		expect((await call(api('/usage/me'), { key })).status).toBe(401);
	});

	test('no User-Agent: edge 403 {"message":"Forbidden"}', async () => {
		const r = await call(searchUrl({ q: 'ocean' }), { key: KEY, ua: null });
		expect(r.status).toBe(403);
		expect(r.json).toEqual({ message: 'Forbidden' });
	});

	test('GET /external/ping needs no key', async () => {
		const r = await call(`${sim.baseUrl}/external/ping`);
		expect(r.status).toBe(200);
		expect(r.json).toHaveProperty('ping');
		expect(r.json).toHaveProperty('timestamp');
	});

	test("GET /external/ping's timestamp is an ISO 8601 UTC date-time string (GridBank's published shape)", async () => {
		const r = await call(`${sim.baseUrl}/external/ping`);
		const { timestamp } = r.json as { timestamp: unknown };
		expect(typeof timestamp).toBe('string');
		expect(timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/);
		// The simulator's clock (this file's `clock`), not the machine's.
		expect(Date.parse(timestamp as string)).toBe(clock);
	});
});

describe('GET /external/v1/videos/search', () => {
	test('response has search_id, page, per_page, has_more and full-metadata videos (default per_page 15)', async () => {
		const r = await call(searchUrl({ q: 'ocean' }), { key: KEY });
		expect(r.status).toBe(200);
		expect(Object.keys(r.json).sort()).toEqual([
			'has_more',
			'page',
			'per_page',
			'search_id',
			'videos',
		]);
		expect(r.json.page).toBe(1);
		expect(r.json.per_page).toBe(15);
		expect(r.json.videos).toHaveLength(15);
		expect(r.json.has_more).toBe(true);
		expect(typeof r.json.search_id).toBe('string');
		for (const v of r.json.videos) {
			expect(Object.keys(v).sort()).toEqual(METADATA_FIELDS);
			expect(typeof v.creator.username).toBe('string');
			expect(v.creator).not.toHaveProperty('id');
			const text = `${v.title} ${(v.keywords ?? []).join(' ')}`.toLowerCase();
			expect(text).toContain('ocean');
		}
	});

	test('a sent search_id is echoed back', async () => {
		const r = await call(searchUrl({ q: 'ocean', search_id: 'my-session-1' }), { key: KEY });
		expect(r.json.search_id).toBe('my-session-1');
	});

	test('words match title and keywords case-insensitively; every word must match', async () => {
		const ids = addZebra(3, [{}, { title: 'Plain clip', keywords: ['ZebraQuartz', 'lime'] }, {}]);
		const r = await call(searchUrl({ q: 'ZEBRAQUARTZ' }), { key: KEY });
		expect(r.json.videos.map((v: { id: string }) => v.id).sort()).toEqual([...ids].sort());
		const both = await call(searchUrl({ q: 'zebraquartz lime' }), { key: KEY });
		expect(both.json.videos.map((v: { id: string }) => v.id)).toEqual([ids[1]]);
	});

	test('paging: has_more true until the last page; pages do not overlap', async () => {
		const ids = addZebra(5);
		const seen: string[] = [];
		const hasMore: boolean[] = [];
		for (let page = 1; page <= 3; page++) {
			const r = await call(searchUrl({ q: 'zebraquartz', per_page: 2, page }), { key: KEY });
			seen.push(...r.json.videos.map((v: { id: string }) => v.id));
			hasMore.push(r.json.has_more);
		}
		expect(hasMore).toEqual([true, true, false]);
		expect(seen.sort()).toEqual([...ids].sort());
	});

	test('page 100 is the last page: has_more stays true when more exist; page 101 is a 422', async () => {
		const p100 = await call(searchUrl({ q: 'footage', per_page: 80, page: 100 }), { key: KEY });
		expect(p100.status).toBe(200);
		expect(p100.json.videos).toHaveLength(80);
		expect(p100.json.has_more).toBe(true);
		const p101 = await call(searchUrl({ q: 'footage', per_page: 80, page: 101 }), { key: KEY });
		expect(p101.status).toBe(422);
		expect(p101.json.detail[0]).toMatchObject({
			loc: ['query', 'page'],
			type: 'less_than_equal',
			ctx: { le: 100 },
		});
	});

	test('duration_min / duration_max filter inclusively', async () => {
		addZebra(4, [{ duration: 5 }, { duration: 10 }, { duration: 20 }, { duration: null }]);
		const r = await call(searchUrl({ q: 'zebraquartz', duration_min: 10, duration_max: 20 }), {
			key: KEY,
		});
		expect(r.json.videos.map((v: { duration: number }) => v.duration).sort()).toEqual([10, 20]);
		const seeded = await call(searchUrl({ q: 'ocean', duration_max: 30, per_page: 80 }), {
			key: KEY,
		});
		expect(seeded.json.videos.length).toBeGreaterThan(0);
		expect(seeded.json.videos.every((v: { duration: number }) => v.duration <= 30)).toBe(true);
	});

	test('theme filters (case-insensitive)', async () => {
		const ids = addZebra(3, [{ theme: 'sports' }, { theme: 'food' }, { theme: 'Sports' }]);
		const r = await call(searchUrl({ q: 'zebraquartz', theme: 'SPORTS' }), { key: KEY });
		expect(r.json.videos.map((v: { id: string }) => v.id).sort()).toEqual([ids[0], ids[2]].sort());
	});

	test('sort=popular and sort=recent order deterministically; relevant puts title matches first', async () => {
		const ids = addZebra(3, [
			{
				popularity: 5,
				publishedAt: Date.UTC(2020, 0, 1),
				title: 'Plain clip',
				keywords: ['zebraquartz'],
			},
			{ popularity: 50, publishedAt: Date.UTC(2024, 0, 1) },
			{ popularity: 20, publishedAt: Date.UTC(2022, 0, 1) },
		]);
		const order = async (sort: string) =>
			(await call(searchUrl({ q: 'zebraquartz', sort }), { key: KEY })).json.videos.map(
				(v: { id: string }) => v.id,
			);
		expect(await order('popular')).toEqual([ids[1], ids[2], ids[0]]);
		expect(await order('recent')).toEqual([ids[1], ids[2], ids[0]]);
		const relevant = await order('relevant');
		expect(relevant[2]).toBe(ids[0]);
		expect(await order('popular')).toEqual(await order('popular'));
	});

	test('a query with no word gets 400 {"detail": string}', async () => {
		const r = await call(searchUrl({ q: '  ---  ' }), { key: KEY });
		expect(r.status).toBe(400);
		expect(typeof r.json.detail).toBe('string');
	});

	test.each([
		['q missing', {}, ['query', 'q'], 'missing'],
		['q empty', { q: '' }, ['query', 'q'], 'string_too_short'],
		['q 201 chars', { q: 'a'.repeat(201) }, ['query', 'q'], 'string_too_long'],
		['sort invalid', { q: 'ocean', sort: 'newest' }, ['query', 'sort'], 'string_pattern_mismatch'],
		['page 0', { q: 'ocean', page: 0 }, ['query', 'page'], 'greater_than_equal'],
		['per_page 0', { q: 'ocean', per_page: 0 }, ['query', 'per_page'], 'greater_than_equal'],
		['per_page 81', { q: 'ocean', per_page: 81 }, ['query', 'per_page'], 'less_than_equal'],
		[
			'duration_min -1',
			{ q: 'ocean', duration_min: -1 },
			['query', 'duration_min'],
			'greater_than_equal',
		],
		[
			'duration_max 1.5',
			{ q: 'ocean', duration_max: '1.5' },
			['query', 'duration_max'],
			'int_parsing',
		],
	])('%s: 422', async (_name, q, loc, type) => {
		const r = await call(searchUrl(q as Record<string, string>), { key: KEY });
		expect(r.status).toBe(422);
		expect(r.json.detail[0]).toMatchObject({ loc, type });
		expect(typeof r.json.detail[0].msg).toBe('string');
	});

	test('q of exactly 200 chars and per_page 80 are accepted', async () => {
		const r = await call(searchUrl({ q: `ocean ${'a'.repeat(194)}`, per_page: 80 }), { key: KEY });
		expect(r.status).toBe(200);
	});

	test('search works without an active subscription', async () => {
		sim.faults.setSubscription(KEY, false);
		expect((await call(searchUrl({ q: 'ocean' }), { key: KEY })).status).toBe(200);
	});
});

describe('GET /external/v1/videos/{video_id}', () => {
	test('metadata has the full shape; ids with / are percent-encoded', async () => {
		const r = await call(api(`/videos/${encodeURIComponent('ocean/aerial_shot-0001')}`), {
			key: KEY,
		});
		expect(r.status).toBe(200);
		expect(Object.keys(r.json).sort()).toEqual(METADATA_FIELDS);
		expect(r.json.id).toBe('ocean/aerial_shot-0001');
		expect(Object.keys(r.json.creator).sort()).toEqual([
			'bio',
			'name',
			'profile_image',
			'username',
		]);
	});

	test('unknown id: 404 {"detail":"Video not found"}', async () => {
		const r = await call(api('/videos/does-not-exist'), { key: KEY });
		expect(r.status).toBe(404);
		expect(r.json).toEqual({ detail: 'Video not found' });
	});

	test.each([
		['51 chars', 'a'.repeat(51), 'string_too_long'],
		['a dot', 'bad.id', 'string_pattern_mismatch'],
		['a space', 'bad id', 'string_pattern_mismatch'],
	])('id with %s: 422', async (_name, id, type) => {
		for (const suffix of ['', '/download']) {
			const r = await call(api(`/videos/${encodeURIComponent(id)}${suffix}`), { key: KEY });
			expect(r.status).toBe(422);
			expect(r.json.detail[0]).toMatchObject({ loc: ['path', 'video_id'], type });
		}
	});

	test('no active subscription: 403 on metadata and download', async () => {
		sim.faults.setSubscription(KEY, false);
		for (const path of ['/videos/Q', '/videos/Q/download']) {
			const r = await call(api(path), { key: KEY });
			expect(r.status).toBe(403);
			expect(r.json).toEqual({ detail: 'No active subscription for this operation' });
		}
		const { key } = sim.createEnterpriseAccount({ subscription: false });
		expect((await call(api('/videos/Q'), { key })).status).toBe(403);
		sim.faults.setSubscription(KEY, true);
		expect((await call(api('/videos/Q'), { key: KEY })).status).toBe(200);
	});
});

describe('GET /external/v1/videos/{video_id}/download', () => {
	test('returns video_id, url, expires_at (ISO UTC), file_size, format; expires_in in minutes', async () => {
		const r = await call(api('/videos/Q/download?search_id=s-1'), { key: KEY });
		expect(r.status).toBe(200);
		expect(Object.keys(r.json).sort()).toEqual([
			'expires_at',
			'file_size',
			'format',
			'url',
			'video_id',
		]);
		expect(r.json.video_id).toBe('Q');
		expect(r.json.expires_at).toBe(
			new Date(clock + 5 * 60_000).toISOString().replace('.000Z', 'Z'),
		);
		expect(r.json.file_size).toBe(sim.getVideoFile('Q').size);
		expect(r.json.format).toBe('mov');
		expect(r.json.url.startsWith(sim.storageUrl)).toBe(true);
		const one = await call(api('/videos/Q/download?expires_in=1'), { key: KEY });
		expect(Date.parse(one.json.expires_at)).toBe(clock + 60_000);
	});

	test.each(['0', '6', 'soon'])('expires_in=%s: 422', async (value) => {
		const r = await call(api(`/videos/Q/download?expires_in=${value}`), { key: KEY });
		expect(r.status).toBe(422);
		expect(r.json.detail[0].loc).toEqual(['query', 'expires_in']);
	});

	test('unknown id: 404', async () => {
		const r = await call(api('/videos/nope-nope/download'), { key: KEY });
		expect(r.status).toBe(404);
		expect(r.json).toEqual({ detail: 'Video not found' });
	});
});

describe('GET /external/v1/usage/me', () => {
	test('has every field; downloads_this_period and top_videos follow downloads', async () => {
		const before = await call(api('/usage/me'), { key: KEY });
		expect(before.status).toBe(200);
		expect(Object.keys(before.json).sort()).toEqual([
			'active_collections_count',
			'customer_id',
			'downloads_this_period',
			'lease_period_end',
			'lease_period_start',
			'tier',
			'top_videos',
			'wildcard_enabled',
		]);
		expect(before.json.tier).toBe('enterprise');
		expect(before.json.lease_period_start).toBe('2025-06-01T00:00:00Z');
		expect(before.json.lease_period_end).toBe('2025-07-01T00:00:00Z');
		for (const t of before.json.top_videos)
			expect(Object.keys(t).sort()).toEqual(['download_count', 'thumbnail', 'video_id']);
		for (let i = 0; i < 20; i++) await call(api('/videos/Q/download'), { key: KEY });
		const after = await call(api('/usage/me'), { key: KEY });
		expect(after.json.downloads_this_period).toBe(before.json.downloads_this_period + 20);
		expect(after.json.top_videos[0]).toMatchObject({ video_id: 'Q', download_count: 20 });
	});

	test('a new account starts at zero with its tier', async () => {
		const { key } = sim.createEnterpriseAccount({ tier: 'growth' });
		const r = await call(api('/usage/me'), { key });
		expect(r.json).toMatchObject({ tier: 'growth', downloads_this_period: 0, top_videos: [] });
	});
});

describe('tier rate limits', () => {
	test('X-RateLimit-* headers on every authenticated response, per tier (documented burst)', async () => {
		const tiers = { starter: 500, growth: 1000, scale: 3000, enterprise: 5000 } as const;
		for (const [tier, burst] of Object.entries(tiers)) {
			const { key } = sim.createEnterpriseAccount({ tier: tier as keyof typeof tiers });
			const ok = await call(api('/usage/me'), { key });
			expect(header(ok, 'x-ratelimit-limit')).toBe(String(burst));
			expect(header(ok, 'x-ratelimit-remaining')).toBe(String(burst - 1));
			expect(Number(header(ok, 'x-ratelimit-reset'))).toBeGreaterThanOrEqual(
				Math.floor(clock / 1000),
			);
			const notFound = await call(api('/videos/nope-nope'), { key });
			expect(header(notFound, 'x-ratelimit-remaining')).toBe(String(burst - 2));
		}
	});

	test('over the burst: 429 {"detail"} with Retry-After; tokens refill with the clock', async () => {
		const limited = await startSimulator({
			now: () => clock,
			enterpriseRates: { starter: { perSecond: 2, burst: 3 } },
		});
		try {
			const { key } = limited.createEnterpriseAccount({ tier: 'starter' });
			const url = `${limited.baseUrl}/external/v1/usage/me`;
			const remaining = [];
			for (let i = 0; i < 3; i++)
				remaining.push(header(await call(url, { key }), 'x-ratelimit-remaining'));
			expect(remaining).toEqual(['2', '1', '0']);
			const r = await call(url, { key });
			expect(r.status).toBe(429);
			expect(typeof r.json.detail).toBe('string');
			expect(header(r, 'retry-after')).toBe('1');
			expect(header(r, 'x-ratelimit-limit')).toBe('3');
			// The demo account has its own bucket.
			expect((await call(url, { key: KEY })).status).toBe(200);
			clock += 1000;
			expect((await call(url, { key })).status).toBe(200);
		} finally {
			await limited.close();
		}
	});

	test('enterpriseRateLimit: false sends neither headers nor 429', async () => {
		const open = await startSimulator({
			enterpriseRateLimit: false,
			enterpriseRates: { enterprise: { perSecond: 1, burst: 1 } },
		});
		try {
			for (let i = 0; i < 3; i++) {
				const r = await call(`${open.baseUrl}/external/v1/usage/me`, { key: KEY });
				expect(r.status).toBe(200);
				expect(header(r, 'x-ratelimit-limit')).toBeUndefined();
			}
		} finally {
			await open.close();
		}
	});
});
