/** Contract: the Partner API as docs/gridbank-api.md describes it. */
import {
	DEMO_PARTNER_KEY,
	DEMO_PARTNER_OWNER_KEY,
	startSimulator,
	type Simulator,
} from '../../simulator';
import { call, code, pageAll } from './helpers';

let sim: Simulator;
let clock = Date.UTC(2025, 5, 1, 12, 0, 0);

beforeAll(async () => {
	sim = await startSimulator({ now: () => clock });
});
afterAll(async () => {
	await sim.close();
});
beforeEach(() => sim.reset());

const content = (q = '') => `${sim.baseUrl}/partner/v1/content${q}`;
const download = (encodedKey: string) => `${sim.baseUrl}/partner/v1/videos/${encodedKey}/download`;

describe('authentication (401 with a detail object)', () => {
	test.each([
		['missing', undefined, undefined],
		['malformed', undefined, 'Bearer not-a-partner-key'],
		['unknown', 'apik_nobody.some-secret', undefined],
		['wrong scheme', undefined, `Basic ${DEMO_PARTNER_KEY}`],
	])('%s key gets 401 invalid_api_key', async (_name, key, authorization) => {
		const r = await call(content(), { key, headers: authorization ? { authorization } : {} });
		expect(r.status).toBe(401);
		expect(code(r)).toBe('invalid_api_key');
		expect(r.json.detail.error.details).toEqual({});
		expect(r.text).not.toContain('some-secret');
	});

	test('a revoked key stops working immediately; another key of the account still works', async () => {
		const acct = sim.createPartnerAccount({ licences: 3 });
		const second = sim.addPartnerKey(acct.key);
		expect((await call(content(), { key: acct.key })).status).toBe(200);
		sim.faults.revokeKey(acct.key);
		const r = await call(content(), { key: acct.key });
		expect(r.status).toBe(401);
		expect(code(r)).toBe('invalid_api_key');
		expect((await call(download('x'), { key: acct.key })).status).toBe(401);
		expect((await call(content(), { key: second })).status).toBe(200);
	});

	test('createPartnerAccount returns a key of the form apik_<id>.<secret>', () => {
		const acct = sim.createPartnerAccount({ licences: 1 });
		expect(acct.key).toMatch(/^apik_[A-Za-z0-9]+\.[A-Za-z0-9_-]+$/);
		expect(acct.key.endsWith(`.${acct.secret}`)).toBe(true);
		expect(acct.accountId).toMatch(/^acc_/);
	});
});

describe('edge protection', () => {
	test('no User-Agent gets 403 {"message":"Forbidden"} without the envelope', async () => {
		const r = await call(content(), { key: DEMO_PARTNER_KEY, ua: null });
		expect(r.status).toBe(403);
		expect(r.json).toEqual({ message: 'Forbidden' });
		const empty = await call(content(), { key: DEMO_PARTNER_KEY, ua: '' });
		expect(empty.status).toBe(403);
		expect(empty.json).toEqual({ message: 'Forbidden' });
	});
});

describe('GET /partner/v1/content', () => {
	test('items carry every field of the spec, newest purchase first', async () => {
		const r = await call(content('?per_page=100'), { key: DEMO_PARTNER_KEY });
		expect(r.status).toBe(200);
		expect(r.json.videos).toHaveLength(100);
		for (const v of r.json.videos) {
			expect(Object.keys(v).sort()).toEqual(
				[
					'creator',
					'duration_seconds',
					'preview_url',
					'purchased_at',
					'thumbnail_url',
					'title',
					'video_key',
				].sort(),
			);
			expect(typeof v.creator.id).toBe('string');
			expect(v.creator).toHaveProperty('username');
			expect(v.creator).toHaveProperty('name');
			expect(Number.isInteger(v.purchased_at)).toBe(true);
			expect(v.video_key).toMatch(/^[a-zA-Z0-9/_-]{1,50}$/);
		}
		const times = r.json.videos.map((v: { purchased_at: number }) => v.purchased_at);
		expect([...times].sort((a, b) => b - a)).toEqual(times);
		expect(typeof r.json.next_cursor).toBe('string');
	});

	test('default per_page is 50', async () => {
		const r = await call(content(), { key: DEMO_PARTNER_KEY });
		expect(r.json.videos).toHaveLength(50);
	});

	test('cursor paging visits all 1250 licences once, in list order, with ceil(N/100) requests', async () => {
		const { keys, requests } = await pageAll(sim.baseUrl, DEMO_PARTNER_KEY, 100);
		expect(requests).toBe(13);
		expect(keys).toHaveLength(1250);
		expect(new Set(keys).size).toBe(1250);
		expect(keys).toEqual(sim.partnerLicences(DEMO_PARTNER_KEY).map((l) => l.video_key));
	});

	test('next_cursor is absent on the last page by default', async () => {
		const acct = sim.createPartnerAccount({ licences: 3 });
		const r = await call(content('?per_page=3'), { key: acct.key });
		expect(r.json.videos).toHaveLength(3);
		expect(r.json).not.toHaveProperty('next_cursor');
	});

	test("the team owner's licences are visible to the member (merged, newest first)", async () => {
		const member = (await pageAll(sim.baseUrl, DEMO_PARTNER_KEY, 100)).keys;
		const owner = (await pageAll(sim.baseUrl, DEMO_PARTNER_OWNER_KEY, 100)).keys;
		expect(owner.length).toBeGreaterThan(300);
		expect(owner.length).toBeLessThan(member.length);
		const memberSet = new Set(member);
		expect(owner.every((k) => memberSet.has(k))).toBe(true);
		// An account with a team owner created on demand sees both sets too.
		const acct = sim.createPartnerAccount({ licences: 4, teamOwnerLicences: 6 });
		expect(sim.partnerLicences(acct.key)).toHaveLength(10);
		expect((await pageAll(sim.baseUrl, acct.key, 100)).keys).toHaveLength(10);
	});

	test('cursor stays stable while new licences arrive at the head: no duplicates, nothing skipped', async () => {
		const before = sim.partnerLicences(DEMO_PARTNER_KEY).map((l) => l.video_key);
		const p1 = await call(content('?per_page=10'), { key: DEMO_PARTNER_KEY });
		clock += 60_000;
		const added = sim.addPartnerLicences(DEMO_PARTNER_KEY, 3);
		expect(added).toHaveLength(3);
		const p2 = await call(
			content(`?per_page=10&cursor=${encodeURIComponent(p1.json.next_cursor)}`),
			{ key: DEMO_PARTNER_KEY },
		);
		const keys2 = p2.json.videos.map((v: { video_key: string }) => v.video_key);
		expect(keys2).toEqual(before.slice(10, 20));
		const fresh = await call(content('?per_page=3'), { key: DEMO_PARTNER_KEY });
		expect(fresh.json.videos.map((v: { video_key: string }) => v.video_key).sort()).toEqual(
			[...added].sort(),
		);
		expect(fresh.json.videos[0].purchased_at).toBe(Math.floor(clock / 1000));
	});

	test('addPartnerLicences with an explicit purchase time and keys; several share one second', async () => {
		const acct = sim.createPartnerAccount({ licences: 2, purchasedAtStart: 1_700_000_000 });
		const keys = sim.addPartnerLicences(acct.key, 2, {
			purchasedAt: 1_800_000_000,
			videoKeys: ['brand/new-1', 'brand/new-2'],
		});
		const r = await call(content(), { key: acct.key });
		expect(r.json.videos.slice(0, 2).map((v: { video_key: string }) => v.video_key)).toEqual(keys);
		expect(r.json.videos[0].purchased_at).toBe(1_800_000_000);
		expect(r.json.videos[1].purchased_at).toBe(1_800_000_000);
		expect(r.json.videos[3].purchased_at).toBe(1_700_000_000);
	});

	test('removePartnerLicences: the refunded video leaves the list and its download answers 403 not licensed', async () => {
		const acct = sim.createPartnerAccount({ licences: 3 });
		const [gone, ...kept] = sim.partnerLicences(acct.key).map((l) => l.video_key);
		sim.removePartnerLicences(acct.key, [gone as string]);
		expect(sim.partnerLicences(acct.key).map((l) => l.video_key)).toEqual(kept);
		expect(
			(await call(content(), { key: acct.key })).json.videos.map(
				(v: { video_key: string }) => v.video_key,
			),
		).toEqual(kept);
		const r = await call(download(encodeURIComponent(gone as string)), { key: acct.key });
		expect(r.status).toBe(403);
		expect(code(r)).not.toBe('partner_access_revoked');
		expect(() => sim.removePartnerLicences(acct.key, [gone as string])).toThrow(/not licensed/);
	});

	test('a tampered cursor answers 400 with the envelope (invalid_cursor)', async () => {
		const p1 = await call(content('?per_page=5'), { key: DEMO_PARTNER_KEY });
		const cursor: string = p1.json.next_cursor;
		const flipped = cursor.slice(0, 3) + (cursor[3] === 'A' ? 'B' : 'A') + cursor.slice(4);
		for (const bad of [flipped, `${cursor}x`, 'garbage', '']) {
			const r = await call(content(`?cursor=${encodeURIComponent(bad)}`), {
				key: DEMO_PARTNER_KEY,
			});
			expect(r.status).toBe(400);
			expect(code(r)).toBe('invalid_cursor');
		}
	});

	test('a cursor issued to another account is refused (400)', async () => {
		const p1 = await call(content('?per_page=5'), { key: DEMO_PARTNER_KEY });
		const r = await call(content(`?cursor=${encodeURIComponent(p1.json.next_cursor)}`), {
			key: DEMO_PARTNER_OWNER_KEY,
		});
		expect(r.status).toBe(400);
	});

	test.each([
		['0', 'greater_than_equal', { ge: 1 }],
		['101', 'less_than_equal', { le: 100 }],
		['ten', 'int_parsing', undefined],
	])('per_page=%s gets a FastAPI 422 (%s)', async (value, type, ctx) => {
		const r = await call(content(`?per_page=${value}`), { key: DEMO_PARTNER_KEY });
		expect(r.status).toBe(422);
		expect(r.json.detail).toHaveLength(1);
		expect(r.json.detail[0]).toMatchObject({ loc: ['query', 'per_page'], type, input: value });
		expect(typeof r.json.detail[0].msg).toBe('string');
		if (ctx) expect(r.json.detail[0].ctx).toEqual(ctx);
	});
});

describe('GET /partner/v1/videos/{video_key}/download', () => {
	test('a licensed video gets {video_key, url, expires_at} valid five minutes', async () => {
		const [first] = sim.partnerLicences(DEMO_PARTNER_KEY);
		const r = await call(download(encodeURIComponent(first!.video_key)), { key: DEMO_PARTNER_KEY });
		expect(r.status).toBe(200);
		expect(Object.keys(r.json).sort()).toEqual(['expires_at', 'url', 'video_key']);
		expect(r.json.video_key).toBe(first!.video_key);
		expect(r.json.expires_at).toBe(Math.floor(clock / 1000) + 300);
		expect(r.json.url.startsWith(`${sim.storageUrl}/`)).toBe(true);
		expect(new URL(r.json.url).searchParams.get('response-content-disposition')).toMatch(
			/^attachment; filename="/,
		);
	});

	test("a team owner's video is downloadable by the member (list and download agree)", async () => {
		const owners = sim.partnerLicences(DEMO_PARTNER_OWNER_KEY);
		const r = await call(download(encodeURIComponent(owners[0]!.video_key)), {
			key: DEMO_PARTNER_KEY,
		});
		expect(r.status).toBe(200);
	});

	test('the key is percent-decoded from the path (a/b is sent as a%2Fb); an unencoded slash is no route', async () => {
		const slashKey = sim
			.partnerLicences(DEMO_PARTNER_KEY)
			.find((l) => l.video_key.includes('/'))!.video_key;
		const ok = await call(download(encodeURIComponent(slashKey)), { key: DEMO_PARTNER_KEY });
		expect(ok.status).toBe(200);
		expect(ok.json.video_key).toBe(slashKey);
		const raw = await call(download(slashKey), { key: DEMO_PARTNER_KEY });
		expect(raw.status).toBe(404);
		expect(raw.json).toEqual({ detail: 'Not Found' });
	});

	test('a video that exists but is not licensed gets 403 not_licensed "Video not purchased."', async () => {
		const key = sim.unlicensedVideoKey(DEMO_PARTNER_KEY);
		const r = await call(download(encodeURIComponent(key)), { key: DEMO_PARTNER_KEY });
		expect(r.status).toBe(403);
		expect(code(r)).toBe('not_licensed');
		expect(r.json.detail.error.message).toBe('Video not purchased.');
		expect(sim.log.filter((e) => e.target === 'storage')).toHaveLength(0);
	});

	test('an unknown key gets 404 with the envelope', async () => {
		const r = await call(download('no-such-video-xyz'), { key: DEMO_PARTNER_KEY });
		expect(r.status).toBe(404);
		expect(typeof r.json.detail.error.code).toBe('string');
		expect(typeof r.json.detail.error.message).toBe('string');
	});

	test.each([
		['a'.repeat(51), 'string_too_long', { max_length: 50 }],
		['', 'string_too_short', { min_length: 1 }],
	])('video_key %j out of 1-50 chars gets 422', async (key, type, ctx) => {
		const r = await call(download(key), { key: DEMO_PARTNER_KEY });
		expect(r.status).toBe(422);
		expect(r.json.detail[0]).toMatchObject({ loc: ['path', 'video_key'], type, ctx });
	});

	test('a 50-char key and a 1-char key are valid', async () => {
		const keys = sim.partnerLicences(DEMO_PARTNER_KEY).map((l) => l.video_key);
		const long = keys.find((k) => k.length === 50)!;
		const short = keys.find((k) => k.length === 1)!;
		expect((await call(download(encodeURIComponent(long)), { key: DEMO_PARTNER_KEY })).status).toBe(
			200,
		);
		expect(
			(await call(download(encodeURIComponent(short)), { key: DEMO_PARTNER_KEY })).status,
		).toBe(200);
	});
});

describe('access withdrawn (403 partner_access_revoked on every endpoint)', () => {
	test('list and download both refused, for every key of the account', async () => {
		const acct = sim.createPartnerAccount({ licences: 5 });
		const other = sim.addPartnerKey(acct.key);
		const [licensed] = sim.partnerLicences(acct.key);
		sim.faults.withdrawPartnerAccess(acct.key);
		for (const url of [content(), download(encodeURIComponent(licensed!.video_key))]) {
			for (const key of [acct.key, other]) {
				const r = await call(url, { key });
				expect(r.status).toBe(403);
				expect(code(r)).toBe('partner_access_revoked');
				expect(r.json.detail.error.message).toBe(
					'Partner API access has been revoked for this account',
				);
			}
		}
		expect((await call(content(), { key: DEMO_PARTNER_KEY })).status).toBe(200);
	});

	test('afterRequests lets N more requests through first', async () => {
		sim.faults.withdrawPartnerAccess(DEMO_PARTNER_KEY, { afterRequests: 2 });
		const statuses = [];
		for (let i = 0; i < 4; i++)
			statuses.push((await call(content('?per_page=1'), { key: DEMO_PARTNER_KEY })).status);
		expect(statuses).toEqual([200, 200, 403, 403]);
	});
});

describe('seeded catalogue', () => {
	test('is identical in a second simulator instance (same keys, order, fields)', async () => {
		const other = await startSimulator({ now: () => clock });
		try {
			const a = await call(content('?per_page=100'), { key: DEMO_PARTNER_KEY });
			const b = await call(`${other.baseUrl}/partner/v1/content?per_page=100`, {
				key: DEMO_PARTNER_KEY,
			});
			expect(b.json.videos).toEqual(a.json.videos);
			expect(b.json.next_cursor).toBe(a.json.next_cursor);
		} finally {
			await other.close();
		}
	});

	test('ids include /, _ and -, and span 1 to 50 chars', () => {
		const keys = sim.partnerLicences(DEMO_PARTNER_KEY).map((l) => l.video_key);
		expect(keys.some((k) => k.includes('/'))).toBe(true);
		expect(keys.some((k) => k.includes('_'))).toBe(true);
		expect(keys.some((k) => k.includes('-'))).toBe(true);
		expect(Math.max(...keys.map((k) => k.length))).toBe(50);
		expect(Math.min(...keys.map((k) => k.length))).toBe(1);
	});
});
