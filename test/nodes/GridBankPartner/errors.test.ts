// Every row of the README's error table (README.md#errors) for the Partner node, retries and their waits,
// bad input refused before any request, continueOnFail and pairedItem.
import { DEMO_PARTNER_KEY } from '../../../simulator';
import { runPartner } from '../../harness/run-gridbank';
import { type NodeRun } from '../../harness/run-node';
import { apiCalls, useSimulator } from '../../harness/simulator';
import { ASKED_WAIT_CEILING_MS } from '../../harness/time-bounds';

const sim = useSimulator();

const listAll = { operation: 'listContent', returnAll: true };
const firstKey = () => sim().partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
const getUrl = (videoKey: string, options = {}) => ({
	operation: 'getDownloadUrl',
	videoKey,
	options,
});

function expectError(result: NodeRun, httpCode: string, message: RegExp, description?: RegExp) {
	expect(result.items).toEqual([]);
	expect(result.error).toBeDefined();
	expect(result.error?.message).toMatch(message);
	if (description) expect(result.error?.description).toMatch(description);
	expect(result.error?.httpCode).toBe(httpCode);
}

describe('API errors become messages a user can act on', () => {
	test('401: a revoked key', async () => {
		const { key } = sim().createPartnerAccount({ licences: 2 });
		sim().faults.revokeKey(key);
		const result = await runPartner(listAll, { apiKey: key });
		expectError(
			result,
			'401',
			/key is missing, malformed or revoked/,
			/create a new key in GridBank account settings/,
		);
	});

	test('403 not licensed names the video', async () => {
		const videoKey = sim().unlicensedVideoKey(DEMO_PARTNER_KEY);
		const result = await runPartner(getUrl(videoKey));
		expectError(result, '403', new RegExp(`Video "${videoKey}" is not licensed by this account`));
	});

	test('403 access withdrawn, on the list (before any video) and on a download', async () => {
		const { key } = sim().createPartnerAccount({ licences: 5 });
		sim().faults.withdrawPartnerAccess(key);
		const onList = await runPartner(listAll, { apiKey: key });
		expectError(
			onList,
			'403',
			/Partner API access has been withdrawn/,
			/new API key will not help/,
		);
		const onDownload = await runPartner(getUrl(sim().partnerLicences(key)[0].video_key), {
			apiKey: key,
		});
		expectError(onDownload, '403', /Partner API access has been withdrawn/);
	});

	test('403 access withdrawn on page 3 of a listing fails the item: no partial list passed on as success', async () => {
		const { key } = sim().createPartnerAccount({ licences: 450 });
		sim().faults.withdrawPartnerAccess(key, { afterRequests: 2 });
		const result = await runPartner(listAll, { apiKey: key });
		expectError(result, '403', /withdrawn/);
		expect(apiCalls(sim(), '/content')).toHaveLength(3);
	});

	test('403 from the edge protection (no envelope) is not called "not licensed"', async () => {
		sim().faults.edgeBlock(true);
		const result = await runPartner(getUrl(firstKey()));
		expectError(
			result,
			'403',
			/blocked the request before it reached the API/,
			/neither a licensing nor a key problem/,
		);
		expect(result.error?.message).not.toMatch(/licensed/);
	});

	test('404 names the video and points to List Licensed Content', async () => {
		const result = await runPartner(getUrl('no-such-video-key'));
		expectError(result, '404', /No video "no-such-video-key"/, /List Licensed Content/);
	});
});

describe('retries', () => {
	test('429 with Retry-After in seconds waits that long, then succeeds', async () => {
		sim().faults.failNext({ status: 429, count: 1, path: '/download', retryAfter: '1' });
		const result = await runPartner(getUrl(firstKey()));
		expect(result.error).toBeUndefined();
		const calls = apiCalls(sim(), '/download');
		expect(calls.map((c) => c.status)).toEqual([429, 200]);
		expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(950);
		expect(calls[1].at - calls[0].at).toBeLessThan(ASKED_WAIT_CEILING_MS);
	});

	test('429 with Retry-After as an HTTP date waits until then', async () => {
		const at = new Date(Date.now() + 2000).toUTCString();
		sim().faults.failNext({ status: 429, count: 1, path: '/download', retryAfter: at });
		const result = await runPartner(getUrl(firstKey()));
		expect(result.error).toBeUndefined();
		const calls = apiCalls(sim(), '/download');
		expect(calls.map((c) => c.status)).toEqual([429, 200]);
		const waited = calls[1].at - calls[0].at;
		expect(waited).toBeGreaterThanOrEqual(Date.parse(at) - calls[0].at - 50);
		expect(waited).toBeLessThan(ASKED_WAIT_CEILING_MS);
	});

	test('429 on every try fails after maxRetries with the per-account explanation', async () => {
		sim().faults.failNext({ status: 429, count: 10, path: '/content', retryAfter: '0' });
		const result = await runPartner({ ...listAll, options: { maxRetries: 2 } });
		expectError(result, '429', /Rate limit exceeded after 2 retries/, /per account, not per key/);
		expect(apiCalls(sim(), '/content')).toHaveLength(3);
	});

	test('5xx (with an HTML body) is retried with backoff, then succeeds', async () => {
		sim().faults.failNext({ status: 502, count: 1, path: '/content', htmlBody: true });
		sim().faults.failNext({ status: 500, count: 1, path: '/content' });
		const result = await runPartner({ operation: 'listContent', returnAll: false, limit: 5 });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(5);
		expect(apiCalls(sim(), '/content').map((c) => c.status)).toEqual([502, 500, 200]);
	});

	test('5xx on every try: a temporary-fault message', async () => {
		sim().faults.failNext({ status: 503, count: 10, path: '/content', htmlBody: true });
		const result = await runPartner({ ...listAll, options: { maxRetries: 1 } });
		expectError(result, '503', /GridBank had a temporary fault \(HTTP 503\)/, /tried 2 times/);
		expect(result.error?.message).not.toMatch(/<html>/);
	});

	test('maxRetries 0 makes exactly one request', async () => {
		sim().faults.failNext({ status: 500, count: 1, path: '/content' });
		const result = await runPartner({ ...listAll, options: { maxRetries: 0 } });
		expectError(result, '500', /temporary fault/);
		expect(apiCalls(sim(), '/content')).toHaveLength(1);
	});
});

describe('bad input is refused before any request', () => {
	test.each([
		['a video key expression that resolves to nothing', '={{ "" }}'],
		['a video key expression that resolves to an object', '={{ { a: 1 } }}'],
		['a video key expression that resolves to null', '={{ null }}'],
		['a video key of 51 characters', 'k'.repeat(51)],
		['a path trick', '../content'],
		['an encoded slash', 'a%2Fb'],
		['control characters', 'ab\ncd'],
		['a number of 10,000 characters', 'x'.repeat(10_000)],
	])('%s', async (_label, videoKey) => {
		const result = await runPartner(getUrl(videoKey));
		expect(result.error?.message).toMatch(/Video Key/);
		expect(sim().log).toHaveLength(0);
	});

	test.each([
		['an empty key', '   '],
		['a key not in the apik_<id>.<secret> format', 'sk_live_1234'],
	])('%s', async (_label, apiKey) => {
		const result = await runPartner(listAll, { apiKey: apiKey });
		expect(result.error?.message).toMatch(/key/);
		expect(`${result.error?.message} ${result.error?.description}`).toMatch(
			/apik_<id>\.<secret>|Paste your GridBank API key/,
		);
		expect(sim().log).toHaveLength(0);
	});

	test('a key pasted with a trailing newline is trimmed and works', async () => {
		const result = await runPartner(
			{ operation: 'listContent', returnAll: false, limit: 1 },
			{ apiKey: `${DEMO_PARTNER_KEY} \n` },
		);
		expect(result.error).toBeUndefined();
		expect(sim().log[0].headers.authorization).toBe(`Bearer ${DEMO_PARTNER_KEY}`);
	});
});

describe('every item', () => {
	test('continueOnFail: a failing middle item keeps the others going, each paired with its input', async () => {
		const [a, c] = sim()
			.partnerLicences(DEMO_PARTNER_KEY)
			.map((l) => l.video_key);
		const result = await runPartner(
			{ operation: 'getDownloadUrl', videoKey: '={{ $json.key }}' },
			{ input: [{ key: a }, { key: 'missing-video' }, { key: c }], continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[0].json.video_key).toBe(a);
		expect(result.items[1].json.error).toMatch(/No video "missing-video"/);
		expect(result.items[2].json.video_key).toBe(c);
	});

	test('"Continue (using error output)": a failed item leaves by the error output, paired with its input; the others by the main output', async () => {
		const [a, c] = sim()
			.partnerLicences(DEMO_PARTNER_KEY)
			.map((l) => l.video_key);
		const result = await runPartner(
			{ operation: 'getDownloadUrl', videoKey: '={{ $json.key }}' },
			{ input: [{ key: a }, { key: 'missing-video' }, { key: c }], errorOutput: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.video_key)).toEqual([a, c]);
		expect(result.errorItems).toHaveLength(1);
		expect(result.errorItems[0].pairedItem).toEqual({ item: 1 });
		// n8n adds the input item's fields; the description comes as `message` (n8n 1.x moves only
		// `error` alone or with `message`).
		expect(result.errorItems[0].json).toEqual({
			key: 'missing-video',
			error: expect.stringMatching(/No video "missing-video"/),
			message: expect.stringMatching(/List Licensed Content/),
		});
	});

	test('without continueOnFail the error names the failing item', async () => {
		const [a] = sim()
			.partnerLicences(DEMO_PARTNER_KEY)
			.map((l) => l.video_key);
		const result = await runPartner(
			{ operation: 'getDownloadUrl', videoKey: '={{ $json.key }}' },
			{ input: [{ key: a }, { key: 'missing-video' }] },
		);
		expect(result.error?.message).toMatch(/No video/);
		expect(result.error?.context?.itemIndex).toBe(1);
	});

	test('every API call identifies itself with the package User-Agent', async () => {
		await runPartner({ operation: 'listContent', returnAll: false, limit: 150 });
		await runPartner(getUrl(firstKey()));
		const calls = sim().log.filter((entry) => entry.target === 'api');
		expect(calls.length).toBe(3);
		for (const call of calls)
			expect(call.headers['user-agent']).toMatch(/^n8n-nodes-gridbank\/\d+\.\d+\.\d+$/);
	});
});

test('422: each validation entry becomes "loc: msg" in the message', async () => {
	sim().faults.failNext({
		status: 422,
		count: 1,
		path: '/content',
		validation: [
			{
				loc: ['query', 'per_page'],
				msg: 'Input should be less than or equal to 20',
				type: 'less_than_equal',
			},
			{
				loc: ['query', 'cursor'],
				msg: 'String should have at most 64 characters',
				type: 'string_too_long',
			},
		],
	});
	const result = await runPartner(listAll);
	expectError(
		result,
		'422',
		/^Invalid parameter: query\.per_page: Input should be less than or equal to 20; query\.cursor: String should have at most 64 characters$/,
	);
	expect(apiCalls(sim(), '/content')).toHaveLength(1);
});
