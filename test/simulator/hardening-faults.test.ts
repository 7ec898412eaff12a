/** Contract: the hardening fault switches (redirects, echoed key, misbehaving paging, times, missing master). */
import {
	DEMO_ENTERPRISE_KEY,
	DEMO_PARTNER_KEY,
	startSimulator,
	type Simulator,
} from '../../simulator';
import { call, fetchUrl, header } from './helpers';

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.close();
});
beforeEach(() => sim.reset());

const content = (q = '') => `${sim.baseUrl}/partner/v1/content${q}`;
const partner = (url: string, key = DEMO_PARTNER_KEY) => call(url, { key });
const SECRET = DEMO_PARTNER_KEY.split('.')[1];

describe('redirectApi', () => {
	test("'other': a 302 to the same path and query on the redirect origin, counted, then normal", async () => {
		sim.faults.redirectApi({ to: 'other', count: 1 });
		const r = await partner(content('?per_page=2'));
		expect(r.status).toBe(302);
		expect(header(r, 'location')).toBe(`${sim.redirectUrl}/partner/v1/content?per_page=2`);
		expect((await partner(content('?per_page=2'))).status).toBe(200);
	});

	test("'same' with a status and a path: only matching requests, to the API's own origin", async () => {
		sim.faults.redirectApi({ to: 'same', count: 2, status: 307, path: '/usage/' });
		expect((await partner(content())).status).toBe(200);
		const r = await call(`${sim.baseUrl}/external/v1/usage/me`, { key: DEMO_ENTERPRISE_KEY });
		expect(r.status).toBe(307);
		expect(header(r, 'location')).toBe(`${sim.baseUrl}/external/v1/usage/me`);
	});

	test('the redirect origin records what it receives', async () => {
		await call(`${sim.redirectUrl}/partner/v1/content`, { key: DEMO_PARTNER_KEY });
		expect(
			sim.log
				.filter((entry) => entry.target === 'redirect')
				.map((entry) => entry.headers.authorization),
		).toEqual([`Bearer ${DEMO_PARTNER_KEY}`]);
	});
});

describe('echoAuthorization', () => {
	test('JSON errors echo the header, the bare secret and a JSON-escaped copy; so does X-Echo', async () => {
		sim.faults.echoAuthorization(true);
		const r = await partner(`${sim.baseUrl}/partner/v1/videos/nope/download`);
		expect(r.status).toBe(404);
		expect(r.json.detail.error.message).toContain(
			`Authorization: Bearer ${DEMO_PARTNER_KEY}; secret ${SECRET}`,
		);
		expect(r.text).toContain('\\u0061\\u0070\\u0069\\u006b');
		expect(r.json.echo).toBe(`Bearer ${DEMO_PARTNER_KEY}`);
		expect(header(r, 'x-echo')).toContain(DEMO_PARTNER_KEY);
	});

	test('HTML pages echo it too; successes do not; off by default', async () => {
		sim.faults.echoAuthorization(true);
		sim.faults.failNext({ status: 502, count: 1, htmlBody: true });
		expect((await partner(content())).text).toMatch(new RegExp(`<pre>.*${SECRET}.*</pre></body>`));
		expect((await partner(content())).text).not.toContain(SECRET);
		sim.faults.clear();
		expect((await partner(`${sim.baseUrl}/partner/v1/videos/nope/download`)).text).not.toContain(
			SECRET,
		);
	});

	test('failNext accepts 400, 403 and 404', async () => {
		for (const status of [400, 403, 404] as const) {
			sim.faults.failNext({ status, count: 1 });
			expect((await partner(content())).status).toBe(status);
		}
	});
});

describe('partnerPaging', () => {
	const page = async (cursor?: string) =>
		(await partner(content(`?per_page=10${cursor ? `&cursor=${cursor}` : ''}`))).json;

	test('repeatCursor: from page 2, next_cursor is the cursor asked for', async () => {
		sim.faults.partnerPaging('repeatCursor');
		const first = await page();
		const second = await page(first.next_cursor);
		expect(second.next_cursor).toBe(first.next_cursor);
	});

	test("cycleCursors: page 3 sends the reader back to page 2's cursor", async () => {
		sim.faults.partnerPaging('cycleCursors');
		const first = await page();
		const second = await page(first.next_cursor);
		const third = await page(second.next_cursor);
		expect(third.next_cursor).toBe(first.next_cursor);
	});

	test.each([
		['emptyPages', (body: Record<string, unknown>) => expect(body.videos).toEqual([])],
		['missingList', (body: Record<string, unknown>) => expect(body).not.toHaveProperty('videos')],
	] as const)('%s: fresh cursors, no videos', async (style, check) => {
		sim.faults.partnerPaging(style);
		const first = await page();
		const second = await page(first.next_cursor);
		check(second);
		expect(second.next_cursor).toEqual(expect.any(String));
		expect(second.next_cursor).not.toBe(first.next_cursor);
	});

	test("duplicatePages: page 1's videos again, and the list ends after 50 pages whatever the style", async () => {
		sim.faults.partnerPaging('duplicatePages');
		const first = await page();
		let body = await page(first.next_cursor);
		expect(body.videos).toEqual(first.videos);
		let pages = 2;
		while (body.next_cursor) {
			body = await page(body.next_cursor);
			pages++;
		}
		expect(pages).toBe(50);
	});
});

test('enterpriseEmptyPages: pages after the first are empty, has_more stays true', async () => {
	sim.faults.enterpriseEmptyPages(true);
	const search = (p: number) =>
		call(`${sim.baseUrl}/external/v1/videos/search?q=footage&per_page=5&page=${p}`, {
			key: DEMO_ENTERPRISE_KEY,
		});
	expect((await search(1)).json.videos).toHaveLength(5);
	const second = (await search(2)).json;
	expect(second).toEqual(expect.objectContaining({ videos: [], has_more: true }));
});

test('purchaseTimesInMs: purchased_at in milliseconds', async () => {
	const [licence] = sim.partnerLicences(DEMO_PARTNER_KEY);
	sim.faults.purchaseTimesInMs(true);
	expect((await partner(content('?per_page=1'))).json.videos[0].purchased_at).toBe(
		licence.purchased_at * 1000,
	);
});

test("missingMaster: that video's signed URL answers 404 NoSuchKey, others are served", async () => {
	const [a, b] = sim.partnerLicences(DEMO_PARTNER_KEY).map((l) => l.video_key);
	sim.faults.missingMaster(a);
	const url = async (key: string) =>
		(await partner(`${sim.baseUrl}/partner/v1/videos/${encodeURIComponent(key)}/download`)).json
			.url as string;
	const missing = await fetchUrl(await url(a));
	expect(missing.status).toBe(404);
	expect(missing.text).toContain('<Code>NoSuchKey</Code>');
	expect((await fetchUrl(await url(b))).status).toBe(200);
});
