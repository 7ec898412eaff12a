// List Licensed Content: request counts and per_page for every paging shape, limit,
// purchasedAfter, cursor restart and team-owner licences.
import { DEMO_PARTNER_KEY } from '../../../simulator';
import { runPartner } from '../../harness/run-gridbank';
import { apiCalls, useSimulator } from '../../harness/simulator';

const sim = useSimulator();

const list = async (apiKey: string, parameters: Record<string, unknown>) => {
	const run = await runPartner({ operation: 'listContent', ...parameters }, { apiKey });
	expect(run.error).toBeUndefined();
	const calls = run.calls.filter((call) => call.path.includes('/partner/v1/content'));
	return {
		run,
		keys: run.items.map((item) => item.json.video_key as string),
		perPage: calls.map((c) => Number(c.query.per_page)),
	};
};

describe('Return All pages to the end with 100 per request', () => {
	test.each([
		[0, [100]],
		[1, [100]],
		[100, [100]],
		[101, [100, 100]],
	])('%i licences → %j', async (licences, perPage) => {
		const { key } = sim().createPartnerAccount({ licences });
		const result = await list(key, { returnAll: true });
		expect(result.keys).toHaveLength(licences);
		expect(new Set(result.keys).size).toBe(licences);
		expect(result.perPage).toEqual(perPage);
	});

	test('all licences of the demo member and its team owner, ceil(N/100) requests, newest first', async () => {
		const expected = sim().partnerLicences(DEMO_PARTNER_KEY);
		expect(expected.length).toBeGreaterThanOrEqual(1200);
		const result = await list(DEMO_PARTNER_KEY, { returnAll: true });
		expect(result.keys).toEqual(expected.map((l) => l.video_key));
		expect(result.perPage).toHaveLength(Math.ceil(expected.length / 100));
		expect(result.perPage.every((n) => n === 100)).toBe(true);
		const times = result.run.items.map((item) => item.json.purchased_at as number);
		expect([...times].sort((a, b) => b - a)).toEqual(times);
		for (const item of result.run.items) expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('team owner licences are included', async () => {
		const { key } = sim().createPartnerAccount({ licences: 3, teamOwnerLicences: 4 });
		const result = await list(key, { returnAll: true });
		expect(result.keys).toHaveLength(7);
		expect(result.keys).toEqual(
			sim()
				.partnerLicences(key)
				.map((l) => l.video_key),
		);
	});
});

describe('Limit fetches no more than it needs', () => {
	test.each([
		[1, [1]],
		[50, [50]],
		[100, [100]],
		[150, [100, 50]],
		[250, [100, 100, 50]],
	])('limit %i → per_page %j', async (limit, perPage) => {
		const result = await list(DEMO_PARTNER_KEY, { returnAll: false, limit });
		expect(result.keys).toEqual(
			sim()
				.partnerLicences(DEMO_PARTNER_KEY)
				.slice(0, limit)
				.map((l) => l.video_key),
		);
		expect(result.perPage).toEqual(perPage);
	});

	test('a limit above what exists returns everything', async () => {
		const { key } = sim().createPartnerAccount({ licences: 30 });
		const result = await list(key, { returnAll: false, limit: 500 });
		expect(result.keys).toHaveLength(30);
		expect(result.perPage).toEqual([100]);
	});
});

describe('Purchased After', () => {
	test('stops paging at the first older purchase', async () => {
		const licences = sim().partnerLicences(DEMO_PARTNER_KEY);
		const cut = licences[149].purchased_at;
		const newer = licences.filter((l) => l.purchased_at > cut);
		const result = await list(DEMO_PARTNER_KEY, {
			returnAll: true,
			options: { purchasedAfter: new Date(cut * 1000).toISOString() },
		});
		expect(result.keys).toEqual(newer.map((l) => l.video_key));
		expect(result.perPage).toHaveLength(Math.ceil((newer.length + 1) / 100));
	});

	test('nothing new costs one request', async () => {
		const newest = sim().partnerLicences(DEMO_PARTNER_KEY)[0].purchased_at;
		const result = await list(DEMO_PARTNER_KEY, {
			returnAll: true,
			options: { purchasedAfter: new Date(newest * 1000 + 1000).toISOString() },
		});
		expect(result.keys).toEqual([]);
		expect(result.perPage).toEqual([100]);
	});

	test('a value that is not a date is refused before any request', async () => {
		sim().clearLog();
		const run = await runPartner({
			operation: 'listContent',
			returnAll: true,
			options: { purchasedAfter: 'last tuesday-ish' },
		});
		expect(run.error?.message).toMatch(/not a date/);
		expect(sim().log).toHaveLength(0);
	});
});

describe('a rejected cursor', () => {
	test('restarts from the first page once and emits no video twice', async () => {
		const { key } = sim().createPartnerAccount({ licences: 350 });
		sim().faults.rejectCursorOnPage(3);
		const result = await list(key, { returnAll: true });
		expect(result.keys).toEqual(
			sim()
				.partnerLicences(key)
				.map((l) => l.video_key),
		);
		const calls = apiCalls(sim(), '/partner/v1/content');
		expect(calls.map((c) => c.status)).toEqual([200, 200, 400, 200, 200, 200, 200]);
		expect(calls[3].query.cursor).toBeUndefined();
	});

	test('under a Limit, the restart re-reads at full page size: the requests Return All would make', async () => {
		const { key } = sim().createPartnerAccount({ licences: 350 });
		sim().faults.rejectCursorOnPage(2);
		const result = await list(key, { returnAll: false, limit: 150 });
		expect(result.keys).toEqual(
			sim()
				.partnerLicences(key)
				.slice(0, 150)
				.map((l) => l.video_key),
		);
		const calls = apiCalls(sim(), '/partner/v1/content');
		expect(calls.map((c) => c.status)).toEqual([200, 400, 200, 200]);
		expect(result.perPage).toEqual([100, 50, 100, 100]);
	});

	test.each(['null', 'empty', 'absent'] as const)(
		'the end of the list is found when next_cursor is %s',
		async (style) => {
			const { key } = sim().createPartnerAccount({ licences: 120 });
			sim().faults.endCursorStyle(style);
			const result = await list(key, { returnAll: true });
			sim().faults.endCursorStyle('absent');
			expect(result.keys).toHaveLength(120);
			expect(result.perPage).toEqual([100, 100]);
		},
	);
});
