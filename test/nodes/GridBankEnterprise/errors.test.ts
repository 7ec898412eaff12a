// Every row of the README's error table (README.md#errors) for the Enterprise API, retries with their waits,
// the key kept out of every output, and continueOnFail with pairedItem.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { deleteBinaries } from '../../harness/run-node';
import { useSimulator } from '../../harness/simulator';
import { ASKED_WAIT_CEILING_MS } from '../../harness/time-bounds';
import { runEnterprise, type GridBankRun as EnterpriseRun } from '../../harness/run-gridbank';

const sim = useSimulator();

let key: string;
let videoId: string;
beforeAll(() => {
	key = sim().createEnterpriseAccount({ tier: 'enterprise' }).key;
	[videoId] = sim().addEnterpriseVideos([{ title: 'Error fixture' }]);
});

const getVideo = (id = videoId, extra: Record<string, unknown> = {}, apiKey = key) =>
	runEnterprise({ resource: 'video', operation: 'get', videoId: id, ...extra }, { apiKey });

/** Milliseconds between consecutive API requests of a run. */
const gaps = (run: EnterpriseRun) => run.calls.slice(1).map((c, i) => c.at - run.calls[i].at);

describe('API errors become NodeApiErrors a no-code user can act on', () => {
	test('401: the key is wrong', async () => {
		const run = await getVideo(videoId, {}, 'ent_not_a_real_key');
		expect(run.error).toMatchObject({
			message: 'The GridBank Enterprise API key is missing, malformed or revoked',
			httpCode: '401',
		});
		expect(run.error?.description).toMatch(
			/Check the "GridBank Enterprise API" credential.*create a new key in GridBank account settings/,
		);
		expect(run.calls).toHaveLength(1);
	});

	test('401: the key was revoked, on every operation', async () => {
		const revoked = sim().createEnterpriseAccount().key;
		sim().faults.revokeKey(revoked);
		for (const parameters of [
			{ resource: 'video', operation: 'search', query: 'forest' },
			{ resource: 'video', operation: 'getDownload', videoId },
			{ resource: 'usage', operation: 'get' },
		]) {
			const run = await runEnterprise(parameters, { apiKey: revoked });
			expect(run.error?.httpCode).toBe('401');
			expect(run.error?.message).toMatch(/missing, malformed or revoked/);
		}
	});

	test.each(['get', 'getDownload'])(
		'403 on %s: no active subscription, upgrade the plan',
		async (operation) => {
			const unsubscribed = sim().createEnterpriseAccount({ subscription: false }).key;
			const run = await runEnterprise(
				{ resource: 'video', operation, videoId },
				{ apiKey: unsubscribed },
			);
			expect(run.error).toMatchObject({
				message: 'No active subscription for this operation',
				httpCode: '403',
			});
			expect(run.error?.description).toMatch(/upgrade the plan/i);
			expect(run.calls).toHaveLength(1);
		},
	);

	test("403 without the API's error body comes from the edge, not the subscription", async () => {
		sim().faults.edgeBlock(true);
		const run = await getVideo();
		expect(run.error?.httpCode).toBe('403');
		expect(run.error?.message).toBe('GridBank blocked the request before it reached the API');
	});

	test('404: no such video, with a pointer to Search', async () => {
		const run = await getVideo('no-such-video');
		expect(run.error).toMatchObject({ message: 'No video "no-such-video"', httpCode: '404' });
		expect(run.error?.description).toMatch(/Search operation/);
		const download = await runEnterprise(
			{ resource: 'video', operation: 'getDownload', videoId: 'no-such-video', download: true },
			{ apiKey: key },
		);
		expect(download.error?.httpCode).toBe('404');
		expect(download.storage).toHaveLength(0);
	});

	test('422 with a list of problems: one "loc: msg" per entry, not retried', async () => {
		sim().faults.failNext({
			status: 422,
			count: 1,
			path: '/videos/search',
			validation: [
				{
					loc: ['query', 'per_page'],
					msg: 'Input should be less than or equal to 20',
					type: 'less_than_equal',
				},
				{
					loc: ['query', 'sort'],
					msg: "String should match pattern '^(relevant|popular)$'",
					type: 'string_pattern_mismatch',
				},
			],
		});
		const run = await runEnterprise(
			{ resource: 'video', operation: 'search', query: 'forest', filters: { sort: 'recent' } },
			{ apiKey: key },
		);
		expect(run.error?.httpCode).toBe('422');
		expect(run.error?.message).toBe(
			"Invalid parameter: query.per_page: Input should be less than or equal to 20; query.sort: String should match pattern '^(relevant|popular)$'",
		);
		expect(run.calls).toHaveLength(1);
	});

	test("400 on search (a query without a word): GridBank's own message", async () => {
		const run = await runEnterprise(
			{ resource: 'video', operation: 'search', query: '!!!' },
			{ apiKey: key },
		);
		expect(run.error?.httpCode).toBe('400');
		expect(run.error?.message).toBe(
			'GridBank rejected the request (HTTP 400): Search query must contain at least one word',
		);
	});
});

describe('429 and 5xx are retried', () => {
	test('429 exhausted: rate limit exceeded after N retries, each Retry-After honoured', async () => {
		sim().faults.failNext({ status: 429, count: 3, retryAfter: '0', path: '/videos/search' });
		const run = await runEnterprise(
			{
				resource: 'video',
				operation: 'search',
				query: 'forest',
				options: { maxRetries: 2 },
			},
			{ apiKey: key },
		);
		expect(run.calls).toHaveLength(3);
		expect(run.calls.every((c) => c.status === 429)).toBe(true);
		expect(run.error).toMatchObject({
			// Retry-After 0: "0 seconds" on a quiet machine, "1 second" or more on a loaded one.
			message: expect.stringMatching(
				/^Rate limit exceeded after 2 retries \(tried 3 times over \d+ seconds?\)$/,
			),
			httpCode: '429',
		});
		expect(run.error?.description).toMatch(/per account, not per key/);
	});

	test('429 with Retry-After: 1 waits a second, then succeeds', async () => {
		sim().faults.failNext({
			status: 429,
			count: 1,
			retryAfter: '1',
			rateLimitHeaders: true,
			path: '/usage/me',
		});
		const run = await runEnterprise(
			{ resource: 'usage', operation: 'get', options: { maxRetries: 1 } },
			{ apiKey: key },
		);
		expect(run.error).toBeUndefined();
		expect(run.calls.map((c) => c.status)).toEqual([429, 200]);
		expect(gaps(run)[0]).toBeGreaterThanOrEqual(950);
		expect(gaps(run)[0]).toBeLessThan(ASKED_WAIT_CEILING_MS);
	});

	test('500 twice, then success: backed off exponentially', async () => {
		sim().faults.failNext({ status: 500, count: 2, path: `/videos/${videoId}` });
		const run = await getVideo(videoId, { options: { maxRetries: 3 } });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json.id).toBe(videoId);
		expect(run.calls.map((c) => c.status)).toEqual([500, 500, 200]);
		const [first, second] = gaps(run);
		// Equal jitter: 250-500 ms, then 500-1000 ms.
		expect(first).toBeGreaterThanOrEqual(240);
		expect(second).toBeGreaterThanOrEqual(490);
		expect(second).toBeGreaterThanOrEqual(first - 20);
	});

	test('500 exhausted: a clear temporary-fault message saying how often it was tried', async () => {
		sim().faults.failNext({ status: 500, count: 5, path: `/videos/${videoId}` });
		const run = await getVideo(videoId, { options: { maxRetries: 1 } });
		expect(run.calls.map((c) => c.status)).toEqual([500, 500]);
		expect(run.error).toMatchObject({
			message: 'GridBank had a temporary fault (HTTP 500)',
			httpCode: '500',
		});
		expect(run.error?.description).toMatch(/tried 2 times/);
	});

	test('a 502 proxy page (HTML) exhausted is still a clear message', async () => {
		sim().faults.failNext({ status: 502, count: 2, htmlBody: true, path: '/usage/me' });
		const run = await runEnterprise(
			{ resource: 'usage', operation: 'get', options: { maxRetries: 1 } },
			{ apiKey: key },
		);
		expect(run.calls).toHaveLength(2);
		expect(run.error?.message).toBe('GridBank had a temporary fault (HTTP 502)');
		expect(run.error?.description).not.toMatch(/<html>/);
	});

	test('maxRetries 0: one request, no retry', async () => {
		sim().faults.failNext({ status: 503, count: 1, path: '/usage/me' });
		const run = await runEnterprise(
			{ resource: 'usage', operation: 'get', options: { maxRetries: 0 } },
			{ apiKey: key },
		);
		expect(run.calls).toHaveLength(1);
		expect(run.error?.httpCode).toBe('503');
		expect(run.error?.description).toMatch(/tried 1 time\b/);
	});

	test('a connection reset is retried', async () => {
		sim().faults.resetConnections({ count: 1, path: '/usage/me' });
		const run = await runEnterprise(
			{ resource: 'usage', operation: 'get', options: { maxRetries: 1 } },
			{ apiKey: key },
		);
		expect(run.error).toBeUndefined();
		expect(run.calls).toHaveLength(2);
	});
});

describe('what the simulator cannot answer: a string 422 and a 429 with only X-RateLimit-Reset', () => {
	/** A stand-in GridBank API that answers each request with the next scripted response. */
	let stub: Server;
	let stubUrl: string;
	let script: Array<{ status: number; body: unknown; headers?: Record<string, string> }> = [];
	const stubCalls: Array<{ url: string; at: number }> = [];
	beforeAll(async () => {
		stub = createServer((req, res) => {
			stubCalls.push({ url: req.url ?? '', at: Date.now() });
			const next = script.shift() ?? { status: 500, body: { detail: 'script exhausted' } };
			res.writeHead(next.status, { 'Content-Type': 'application/json', ...next.headers });
			res.end(JSON.stringify(next.body));
		});
		await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
		stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		await new Promise<void>((resolve) => stub.close(() => resolve()));
	});
	beforeEach(() => {
		stubCalls.length = 0;
	});

	const searchOnStub = (options: Record<string, unknown> = {}) =>
		runEnterprise(
			{ resource: 'video', operation: 'search', query: 'forest', options },
			{ apiKey: key, baseUrl: stubUrl },
		);

	test('422 with a plain string detail', async () => {
		script = [{ status: 422, body: { detail: 'theme is not a known category' } }];
		const run = await searchOnStub();
		expect(run.error?.httpCode).toBe('422');
		expect(run.error?.message).toBe('Invalid parameter: theme is not a known category');
	});

	test('a 429 without Retry-After waits until X-RateLimit-Reset', async () => {
		const reset = Math.ceil(Date.now() / 1000) + 1;
		script = [
			{
				status: 429,
				body: { detail: 'Rate limit exceeded' },
				headers: {
					'X-RateLimit-Limit': '50',
					'X-RateLimit-Remaining': '0',
					'X-RateLimit-Reset': String(reset),
				},
			},
			{
				status: 200,
				body: {
					search_id: 'srch_stub',
					page: 1,
					per_page: 15,
					has_more: false,
					videos: [{ id: 'v1' }],
				},
			},
		];
		const run = await searchOnStub({ maxRetries: 1 });
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json)).toEqual([{ id: 'v1', search_id: 'srch_stub' }]);
		expect(stubCalls).toHaveLength(2);
		expect(stubCalls[1].at).toBeGreaterThanOrEqual(reset * 1000 - 50);
	});
});

describe('the API key appears in no output, error or run data', () => {
	type Failure = 'wrong key' | 'unsubscribed' | '429' | '500' | undefined;
	test.each<[string, () => Record<string, unknown>, Failure]>([
		[
			'a search',
			() => ({ resource: 'video', operation: 'search', query: 'forest', limit: 3 }),
			undefined,
		],
		[
			'a download with the file',
			() => ({ resource: 'video', operation: 'getDownload', videoId, download: true }),
			undefined,
		],
		['a usage report', () => ({ resource: 'usage', operation: 'get' }), undefined],
		['a 401', () => ({ resource: 'usage', operation: 'get' }), 'wrong key'],
		['a 403', () => ({ resource: 'video', operation: 'get', videoId }), 'unsubscribed'],
		[
			'a 429 exhausted',
			() => ({ resource: 'usage', operation: 'get', options: { maxRetries: 0 } }),
			'429',
		],
		[
			'a 500 exhausted',
			() => ({ resource: 'video', operation: 'getDownload', videoId, options: { maxRetries: 0 } }),
			'500',
		],
	])('%s', async (_, parameters, failure) => {
		let apiKey = sim().createEnterpriseAccount({ tier: 'enterprise' }).key;
		if (failure === 'wrong key') apiKey = `${apiKey}x`;
		if (failure === 'unsubscribed') sim().faults.setSubscription(apiKey, false);
		if (failure === '429') sim().faults.failNext({ status: 429, count: 1, retryAfter: '0' });
		if (failure === '500') sim().faults.failNext({ status: 500, count: 1 });
		const run = await runEnterprise(parameters(), { apiKey });
		try {
			if (failure) expect(run.error?.message).toEqual(expect.any(String));
			else {
				expect(run.error).toBeUndefined();
				expect(run.items.length).toBeGreaterThan(0);
			}
			const everything = JSON.stringify({ items: run.items, error: run.error, run: run.run });
			expect(everything).not.toContain(apiKey);
			expect(everything).not.toContain(apiKey.slice('ent_'.length));
			// The key did go out: as the Bearer token of API requests, never to storage.
			expect(run.calls.every((c) => c.headers.authorization === `Bearer ${apiKey}`)).toBe(true);
			expect(
				run.calls.every((c) => c.headers['user-agent']?.startsWith('n8n-nodes-gridbank/')),
			).toBe(true);
			for (const request of run.storage) expect(JSON.stringify(request)).not.toContain(apiKey);
		} finally {
			await deleteBinaries(run);
		}
	});
});

describe('continueOnFail and pairedItem', () => {
	const input = () => [{ id: videoId }, { id: 'no-such-video' }, { id: videoId }];

	test('a failing middle item: three items, the error on the second, each paired with its input', async () => {
		const run = await runEnterprise(
			{ resource: 'video', operation: 'get', videoId: '={{ $json.id }}' },
			{ apiKey: key, input: input(), continueOnFail: true },
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(3);
		expect(run.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(run.items[0].json.id).toBe(videoId);
		expect(run.items[1].json).toMatchObject({ error: 'No video "no-such-video"', httpCode: '404' });
		expect(run.items[1].json.description).toMatch(/Search/);
		expect(run.items[2].json.id).toBe(videoId);
		expect(run.calls).toHaveLength(3);
	});

	test('a middle item with bad input fails alone, without a request', async () => {
		const run = await runEnterprise(
			{ resource: 'video', operation: 'get', videoId: '={{ $json.id }}' },
			{
				apiKey: key,
				input: [{ id: videoId }, { id: 'not valid!' }, { id: videoId }],
				continueOnFail: true,
			},
		);
		expect(run.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(run.items[1].json.error).toMatch(/not a valid video id/);
		expect(run.calls).toHaveLength(2);
	});

	test('search items of every input are paired with it', async () => {
		const run = await runEnterprise(
			{ resource: 'video', operation: 'search', query: '={{ $json.q }}', limit: 2 },
			{ apiKey: key, input: [{ q: 'forest' }, { q: '' }, { q: 'city' }], continueOnFail: true },
		);
		expect(run.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 2 },
		]);
		expect(run.items[2].json.error).toBe('Query is empty');
	});

	test('without continueOnFail the middle item stops the node and names its item', async () => {
		const run = await runEnterprise(
			{ resource: 'video', operation: 'get', videoId: '={{ $json.id }}' },
			{ apiKey: key, input: input() },
		);
		expect(run.error).toMatchObject({ message: 'No video "no-such-video"', httpCode: '404' });
		expect(run.error?.context?.itemIndex).toBe(1);
		expect(run.calls).toHaveLength(2);
	});
});
