/** Contract: every fault switch of the simulator, and reset(). */
import { request } from 'undici';
import {
	DEMO_ENTERPRISE_KEY,
	DEMO_PARTNER_KEY,
	fileBytes,
	startSimulator,
	type Simulator,
} from '../../simulator';
import { call, code, fetchUrl, header, pageAll, signedUrlOf } from './helpers';

let sim: Simulator;
let videoKey: string;

beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.close();
});
beforeEach(() => {
	sim.reset();
	videoKey = sim.partnerLicences(DEMO_PARTNER_KEY)[0]!.video_key;
	sim.setVideoFile(videoKey, { size: 200_000 });
});

const content = (q = '') => `${sim.baseUrl}/partner/v1/content${q}`;
const usage = () => `${sim.baseUrl}/external/v1/usage/me`;
const partner = (url: string) => call(url, { key: DEMO_PARTNER_KEY });
const enterprise = (url: string) => call(url, { key: DEMO_ENTERPRISE_KEY });

const signedUrl = () => signedUrlOf(sim.baseUrl, videoKey);

/** Reads a body to the end; resolves with the bytes or rejects when the transfer breaks. */
async function readAll(
	url: string,
): Promise<{ status: number; contentLength?: string; bytes: Buffer }> {
	const r = await request(url);
	const bytes = Buffer.from(await r.body.arrayBuffer());
	return {
		status: r.statusCode,
		contentLength: r.headers['content-length'] as string | undefined,
		bytes,
	};
}

describe('failNext', () => {
	test('429 with Retry-After in seconds, consumed after count requests', async () => {
		sim.faults.failNext({ status: 429, count: 2, retryAfter: '7' });
		const a = await partner(content());
		const b = await enterprise(usage());
		const c = await partner(content());
		expect([a.status, b.status, c.status]).toEqual([429, 429, 200]);
		expect(header(a, 'retry-after')).toBe('7');
		expect(code(a)).toBe('rate_limit_exceeded');
		expect(typeof b.json.detail).toBe('string');
	});

	test('429 with an HTTP-date Retry-After and X-RateLimit headers', async () => {
		const date = new Date(Date.now() + 3000).toUTCString();
		sim.faults.failNext({ status: 429, count: 1, retryAfter: date, rateLimitHeaders: true });
		const r = await enterprise(usage());
		expect(r.status).toBe(429);
		expect(header(r, 'retry-after')).toBe(date);
		expect(header(r, 'x-ratelimit-remaining')).toBe('0');
		expect(header(r, 'x-ratelimit-limit')).toBeDefined();
		expect(header(r, 'x-ratelimit-reset')).toMatch(/^\d+$/);
	});

	test("500 uses each API's error shape; path limits which requests fail", async () => {
		sim.faults.failNext({ status: 500, count: 1, path: '/partner/' });
		sim.faults.failNext({ status: 500, count: 1, path: /^\/external\/v1\/usage/ });
		const e = await enterprise(usage());
		expect(e.status).toBe(500);
		expect(typeof e.json.detail).toBe('string');
		const p = await partner(content());
		expect(p.status).toBe(500);
		expect(typeof p.json.detail.error.code).toBe('string');
		expect((await partner(content())).status).toBe(200);
	});

	test('502 with htmlBody sends the proxy page as text/html', async () => {
		sim.faults.failNext({ status: 502, count: 1, htmlBody: true });
		const r = await partner(content());
		expect(r.status).toBe(502);
		expect(header(r, 'content-type')).toBe('text/html');
		expect(r.text).toBe('<html><body><h1>502 Bad Gateway</h1></body></html>');
	});

	test('502 on usage/me carries the documented "usage data unavailable" detail', async () => {
		sim.faults.failNext({ status: 502, count: 1, path: '/usage/me' });
		const r = await enterprise(usage());
		expect(r.status).toBe(502);
		expect(r.json).toEqual({ detail: 'usage data unavailable in this environment' });
	});

	test.each([503, 504] as const)(
		'%i answers before auth (a proxy in front of the API)',
		async (status) => {
			sim.faults.failNext({ status, count: 1 });
			const r = await call(content(), { key: 'apik_wrong.key' });
			expect(r.status).toBe(status);
		},
	);

	test('target storage fails the signed URL fetch, not the API', async () => {
		sim.faults.failNext({ status: 503, count: 1, target: 'storage' });
		const url = await signedUrl();
		const r = await fetchUrl(url);
		expect(r.status).toBe(503);
		expect(r.text).toContain('<Error>');
		expect((await fetchUrl(url)).status).toBe(200);
	});

	test.each([429, 503] as const)(
		'target storage, %i with retryAfter: S3 XML with that Retry-After for the first `count` GETs',
		async (status) => {
			sim.faults.failNext({ status, count: 2, target: 'storage', retryAfter: '2' });
			const url = await signedUrl();
			for (const _ of [1, 2]) {
				const r = await fetchUrl(url);
				expect(r.status).toBe(status);
				expect(header(r, 'retry-after')).toBe('2');
				expect(r.text).toContain(
					status === 429 ? '<Code>SlowDown</Code>' : '<Code>ServiceUnavailable</Code>',
				);
			}
			expect((await fetchUrl(url)).status).toBe(200);
		},
	);
});

describe('resetConnections', () => {
	test('api: the socket is destroyed without a response, then service resumes', async () => {
		sim.faults.resetConnections({ count: 1, path: '/partner/v1/content' });
		await expect(
			request(content(), {
				headers: { 'user-agent': 'x', authorization: `Bearer ${DEMO_PARTNER_KEY}` },
			}),
		).rejects.toThrow();
		expect((await partner(content())).status).toBe(200);
		expect(sim.log.filter((e) => e.path === '/partner/v1/content').map((e) => e.status)).toEqual([
			0, 200,
		]);
	});

	test('api with afterBytes: headers and part of the body, then the socket dies', async () => {
		sim.faults.resetConnections({ count: 1, afterBytes: 20 });
		const r = await request(content(), {
			headers: { 'user-agent': 'x', authorization: `Bearer ${DEMO_PARTNER_KEY}` },
		});
		expect(r.statusCode).toBe(200);
		await expect(r.body.text()).rejects.toThrow();
	});

	test('storage with afterBytes: 200 and Content-Length, body broken after N bytes', async () => {
		const url = await signedUrl();
		sim.faults.resetConnections({ count: 1, target: 'storage', afterBytes: 1000 });
		await expect(readAll(url)).rejects.toThrow();
		expect((await readAll(url)).bytes.length).toBe(200_000);
	});

	test('storage without afterBytes: connection reset before any status', async () => {
		const url = await signedUrl();
		sim.faults.resetConnections({ count: 1, target: 'storage' });
		await expect(request(url)).rejects.toThrow();
	});
});

describe('cursor rejection', () => {
	test('rejectCursorOnPage(n): the cursor leading to page n answers 400 once', async () => {
		sim.faults.rejectCursorOnPage(3);
		const p1 = await partner(content('?per_page=10'));
		const p2 = await partner(
			content(`?per_page=10&cursor=${encodeURIComponent(p1.json.next_cursor)}`),
		);
		expect(p2.status).toBe(200);
		const cursor3 = encodeURIComponent(p2.json.next_cursor);
		const rejected = await partner(content(`?per_page=10&cursor=${cursor3}`));
		expect(rejected.status).toBe(400);
		expect(code(rejected)).toBe('invalid_cursor');
		expect((await partner(content(`?per_page=10&cursor=${cursor3}`))).status).toBe(200);
	});
});

describe('download faults', () => {
	test('cutDownloadAfter: full Content-Length declared, connection closed early', async () => {
		sim.faults.cutDownloadAfter(5000);
		const url = await signedUrl();
		const r = await request(url);
		expect(r.statusCode).toBe(200);
		expect(r.headers['content-length']).toBe('200000');
		await expect(r.body.arrayBuffer()).rejects.toThrow();
		const again = await readAll(url);
		expect(again.bytes.equals(fileBytes(videoKey, 0, 200_000))).toBe(true);
	});

	test('declareWrongLength(+delta): Content-Length too long, body ends short', async () => {
		sim.faults.declareWrongLength(100);
		const r = await request(await signedUrl());
		expect(r.headers['content-length']).toBe('200100');
		await expect(r.body.arrayBuffer()).rejects.toThrow();
	});

	test('declareWrongLength(-delta): Content-Length too short, body is the declared prefix', async () => {
		sim.faults.declareWrongLength(-100);
		const r = await readAll(await signedUrl());
		expect(r.contentLength).toBe('199900');
		expect(r.bytes.equals(fileBytes(videoKey, 0, 199_900))).toBe(true);
	});

	test('sendExtraBytes: the body and Content-Length run past the file, Content-Range keeps its size', async () => {
		sim.faults.sendExtraBytes(300);
		const r = await request(await signedUrl(), { headers: { range: 'bytes=0-' } });
		const bytes = Buffer.from(await r.body.arrayBuffer());
		expect(r.statusCode).toBe(206);
		expect(r.headers['content-range']).toBe('bytes 0-199999/200000');
		expect(r.headers['content-length']).toBe('200300');
		expect(bytes).toHaveLength(200_300);
		expect(bytes.subarray(0, 200_000).equals(fileBytes(videoKey, 0, 200_000))).toBe(true);
		// Only the armed response: the next is the file again.
		expect((await readAll(await signedUrl())).bytes).toHaveLength(200_000);
	});

	test('slowDownload paces the body to about bytesPerSecond', async () => {
		sim.setVideoFile(videoKey, { size: 60_000 });
		sim.faults.slowDownload(100_000);
		const url = await signedUrl();
		const t0 = Date.now();
		const r = await readAll(url);
		const ms = Date.now() - t0;
		expect(r.bytes.length).toBe(60_000);
		// 60 kB at 100 kB/s: 600 ms at least (a loaded machine is later, never earlier).
		expect(ms).toBeGreaterThanOrEqual(500);
		sim.faults.slowDownload(0);
		const t1 = Date.now();
		await readAll(url);
		// Off again: an unpaced read of the same 60 kB is quicker than the paced one was.
		expect(Date.now() - t1).toBeLessThan(ms);
	});

	test('expireUrlsEarly: the next URL is refused by storage although expires_at is ahead', async () => {
		sim.faults.expireUrlsEarly(1);
		const r = await partner(
			`${sim.baseUrl}/partner/v1/videos/${encodeURIComponent(videoKey)}/download`,
		);
		expect(r.json.expires_at).toBeGreaterThan(Date.now() / 1000 + 200);
		const refused = await fetchUrl(r.json.url);
		expect(refused.status).toBe(403);
		expect(refused.text).toContain('<Code>AccessDenied</Code>');
		expect(refused.text).toContain('Request has expired');
		expect((await fetchUrl(await signedUrl())).status).toBe(200);
	});

	test.each([400, 401, 403, 410] as const)(
		'storageRefuse(%i) answers that status with S3 XML, count times',
		async (status) => {
			sim.faults.storageRefuse(status, 2);
			const url = await signedUrl();
			const a = await fetchUrl(url);
			const b = await fetchUrl(url);
			expect([a.status, b.status]).toEqual([status, status]);
			expect(header(a, 'content-type')).toBe('application/xml');
			expect(a.text).toMatch(/<Error><Code>\w+<\/Code>/);
			expect((await fetchUrl(url)).status).toBe(200);
		},
	);

	test('redirectStorage: 302 to a third origin that serves the file and logs headers', async () => {
		sim.faults.redirectStorage(1);
		const url = await signedUrl();
		const r = await request(url);
		await r.body.dump();
		expect(r.statusCode).toBe(302);
		const location = r.headers.location as string;
		expect(location.startsWith(sim.redirectUrl)).toBe(true);
		expect(new URL(location).origin).not.toBe(new URL(sim.storageUrl).origin);
		const final = await fetchUrl(location, { 'x-probe': 'yes' });
		expect(final.status).toBe(200);
		expect(final.bytes.equals(fileBytes(videoKey, 0, 200_000))).toBe(true);
		const logged = sim.log.find((e) => e.target === 'redirect')!;
		expect(logged.headers['x-probe']).toBe('yes');
		expect(logged.headers.authorization).toBeUndefined();
		expect((await fetchUrl(url)).status).toBe(200);
	});
});

describe('response-shape faults', () => {
	test('nonJsonOkBody: 200 text/html on the matching path, count times', async () => {
		sim.faults.nonJsonOkBody('/partner/v1/content', 1);
		expect((await enterprise(usage())).json).toBeDefined();
		const r = await partner(content());
		expect(r.status).toBe(200);
		expect(header(r, 'content-type')).toBe('text/html');
		expect(r.json).toBeUndefined();
		expect((await partner(content())).json.videos).toBeDefined();
	});

	test('nullableFieldsNull: every nullable field null, required ones kept', async () => {
		sim.faults.nullableFieldsNull(true);
		const list = await partner(content('?per_page=3'));
		for (const v of list.json.videos) {
			expect(v).toMatchObject({
				title: null,
				duration_seconds: null,
				purchased_at: null,
				preview_url: null,
				thumbnail_url: null,
			});
			expect(typeof v.video_key).toBe('string');
			expect(typeof v.creator.id).toBe('string');
			expect(v.creator.username).toBeNull();
			expect(v.creator.name).toBeNull();
		}
		const meta = await enterprise(`${sim.baseUrl}/external/v1/videos/Q`);
		expect(meta.json).toMatchObject({
			id: 'Q',
			title: null,
			description: null,
			duration: null,
			width: null,
			height: null,
			keywords: null,
			url: null,
			thumbnail: null,
			location: null,
		});
		expect(typeof meta.json.creator.username).toBe('string');
		expect(meta.json.creator).toMatchObject({ name: null, bio: null, profile_image: null });
		const search = await enterprise(`${sim.baseUrl}/external/v1/videos/search?q=ocean&per_page=2`);
		expect(search.json.videos[0].title).toBeNull();
		sim.faults.nullableFieldsNull(false);
		expect((await partner(content('?per_page=1'))).json.videos[0].title).not.toBeNull();
	});

	test('extraFields: unknown fields added beside every spec field', async () => {
		sim.faults.extraFields(true);
		const list = await partner(content('?per_page=2'));
		const item = list.json.videos[0];
		expect(Object.keys(item).length).toBeGreaterThan(7);
		expect(item).toHaveProperty('video_key');
		expect(Object.keys(item.creator).length).toBeGreaterThan(3);
		expect(Object.keys(list.json).length).toBeGreaterThan(2);
		const meta = await enterprise(`${sim.baseUrl}/external/v1/videos/Q`);
		expect(Object.keys(meta.json).length).toBeGreaterThan(11);
		const u = await enterprise(usage());
		expect(Object.keys(u.json).length).toBeGreaterThan(8);
	});

	test('edgeBlock: 403 {"message":"Forbidden"} for every API request, even with a User-Agent', async () => {
		sim.faults.edgeBlock(true);
		for (const r of [
			await partner(content()),
			await enterprise(usage()),
			await call(`${sim.baseUrl}/external/ping`),
		]) {
			expect(r.status).toBe(403);
			expect(r.json).toEqual({ message: 'Forbidden' });
		}
		sim.faults.edgeBlock(false);
		expect((await partner(content())).status).toBe(200);
	});

	test.each([
		['null', null],
		['empty', ''],
	] as const)('endCursorStyle(%s): the last page says the end with %j', async (style, value) => {
		sim.faults.endCursorStyle(style);
		const acct = sim.createPartnerAccount({ licences: 3 });
		const r = await call(content('?per_page=5'), { key: acct.key });
		expect(r.json.next_cursor).toBe(value);
		expect((await pageAll(sim.baseUrl, acct.key, 2)).keys).toHaveLength(3);
	});
});

describe('reset and clear', () => {
	test('reset() returns to the seeded state: faults off, log empty, added accounts and videos gone', async () => {
		const acct = sim.createPartnerAccount({ licences: 2 });
		const [added] = sim.addEnterpriseVideos([{ title: 'Zebraquartz reset' }]);
		sim.addPartnerLicences(DEMO_PARTNER_KEY, 2);
		sim.faults.edgeBlock(true);
		sim.faults.failNext({ status: 500, count: 5 });
		sim.setVideoFile(videoKey, { size: 7 });
		sim.reset();
		expect(sim.log).toHaveLength(0);
		expect((await call(content(), { key: acct.key })).status).toBe(401);
		expect(sim.getVideo(added!)).toBeUndefined();
		expect(sim.partnerLicences(DEMO_PARTNER_KEY)).toHaveLength(1250);
		expect(sim.getVideoFile(videoKey).size).not.toBe(7);
		expect((await partner(content())).status).toBe(200);
	});

	test('faults.clear() turns switches off but keeps accounts', async () => {
		const acct = sim.createPartnerAccount({ licences: 2 });
		sim.faults.failNext({ status: 503, count: 3 });
		sim.faults.extraFields(true);
		sim.faults.clear();
		const r = await call(content(), { key: acct.key });
		expect(r.status).toBe(200);
		expect(Object.keys(r.json)).toEqual(['videos']);
	});

	test('logLimit keeps the log bounded, dropping the oldest entries', async () => {
		const small = await startSimulator({ logLimit: 10 });
		try {
			for (let i = 0; i < 30; i++) await call(`${small.baseUrl}/external/ping?i=${i}`);
			expect(small.log.length).toBeLessThanOrEqual(11);
			expect(small.log[small.log.length - 1]!.query.i).toBe('29');
		} finally {
			await small.close();
		}
	});

	test('clearLog() empties the log in place', async () => {
		const log = sim.log;
		await partner(content('?per_page=1'));
		expect(log.length).toBe(1);
		sim.clearLog();
		expect(log).toHaveLength(0);
		expect(sim.log).toBe(log);
	});
});
