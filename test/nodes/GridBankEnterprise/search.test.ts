// Search Videos: request counts and per_page for every paging shape, the page-100 stop and its
// hint, dedupe when results shift between pages, filters and sort on the wire, input bounds.
import type { LoggedRequest } from '../../../simulator';
import { useSimulator } from '../../harness/simulator';
import { runEnterprise } from '../../harness/run-gridbank';
import { addKeywordVideos } from './enterprise-harness';

/** Called when the simulator has answered a request: lets a test change the catalogue mid-search. */
let onAnswered: ((request: LoggedRequest) => void) | undefined;
const sim = useSimulator({ onRequest: (request) => onAnswered?.(request) });

let key: string;
beforeAll(() => {
	key = sim().createEnterpriseAccount({ tier: 'enterprise' }).key;
});
afterEach(() => {
	onAnswered = undefined;
});

const search = (parameters: Record<string, unknown>) =>
	runEnterprise({ resource: 'video', operation: 'search', ...parameters }, { apiKey: key });

const pages = (calls: LoggedRequest[]) =>
	calls.map((c) => [Number(c.query.page), Number(c.query.per_page)]);

describe('Return All pages from 1 while has_more, 80 per page', () => {
	test.each([
		[0, 1],
		[1, 1],
		[80, 1],
		[81, 2],
		[1000, 13],
	])('%i results → %i requests', async (count, requests) => {
		const { keyword, ids } = addKeywordVideos(sim(), count);
		const run = await search({ query: keyword, returnAll: true });
		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.json.id)).toEqual(ids);
		expect(run.calls).toHaveLength(requests);
		expect(pages(run.calls)).toEqual(Array.from({ length: requests }, (_, i) => [i + 1, 80]));
		expect(
			run.calls.every((c) => c.path === '/external/v1/videos/search' && c.query.q === keyword),
		).toBe(true);
		expect(run.task.hints ?? []).toEqual([]);
	});

	test('every item carries the search_id, which later pages send back', async () => {
		const { keyword } = addKeywordVideos(sim(), 170);
		const run = await search({ query: keyword, returnAll: true });
		const searchIds = new Set(run.items.map((item) => item.json.search_id));
		expect(searchIds.size).toBe(1);
		const [searchId] = [...searchIds];
		expect(searchId).toMatch(/^srch_/);
		expect(run.calls[0].query.search_id).toBeUndefined();
		expect(run.calls.slice(1).map((c) => c.query.search_id)).toEqual([searchId, searchId]);
		for (const item of run.items) expect(item.pairedItem).toEqual({ item: 0 });
	});

	test("stops at page 100, the API's last, and says in the output hints that more exist", async () => {
		const { keyword, ids } = addKeywordVideos(sim(), 8050);
		const run = await search({ query: keyword, returnAll: true });
		expect(run.error).toBeUndefined();
		expect(run.calls).toHaveLength(100);
		expect(pages(run.calls)).toEqual(Array.from({ length: 100 }, (_, i) => [i + 1, 80]));
		expect(run.items.map((item) => item.json.id)).toEqual(ids.slice(0, 8000));
		expect(run.task.hints).toHaveLength(1);
		const [hint] = run.task.hints ?? [];
		expect(hint.location).toBe('outputPane');
		expect(hint.message).toMatch(/more results/i);
		expect(hint.message).toMatch(/page 100/);
		expect(hint.message).toMatch(/narrow the search/i);
	}, 60_000);
});

describe('a limit takes the fewest pages with one per_page that covers it', () => {
	test.each([
		[undefined, [[1, 50]]],
		[1, [[1, 1]]],
		[80, [[1, 80]]],
		[
			100,
			[
				[1, 50],
				[2, 50],
			],
		],
		[
			160,
			[
				[1, 80],
				[2, 80],
			],
		],
		[
			161,
			[
				[1, 54],
				[2, 54],
				[3, 54],
			],
		],
	])('limit %s → pages %j', async (limit, expected) => {
		const { keyword, ids } = addKeywordVideos(sim(), 300);
		const run = await search({
			query: keyword,
			returnAll: false,
			...(limit === undefined ? {} : { limit }),
		});
		expect(run.error).toBeUndefined();
		expect(pages(run.calls)).toEqual(expected);
		expect(run.items.map((item) => item.json.id)).toEqual(ids.slice(0, limit ?? 50));
	});

	test('a limit above what exists stops when has_more is false', async () => {
		const { keyword, ids } = addKeywordVideos(sim(), 30);
		const run = await search({ query: keyword, limit: 100 });
		expect(pages(run.calls)).toEqual([[1, 50]]);
		expect(run.items).toHaveLength(ids.length);
	});
});

describe('results that shift between pages', () => {
	/** After page 1 is answered, five new, more popular matches push every result down by five. */
	const shiftAfterPageOne = (keyword: string) => {
		const shift = { addedBeforeRequest: -1, added: [] as string[] };
		onAnswered = (request) => {
			if (request.query.q !== keyword || request.query.page !== '1' || shift.added.length) return;
			shift.addedBeforeRequest = sim().log.length;
			shift.added = sim().addEnterpriseVideos(
				Array.from({ length: 5 }, () => ({
					title: 'Sample footage',
					keywords: [keyword],
					popularity: 1_000_000,
				})),
			);
		};
		return shift;
	};

	test('Return All emits each video once, in order, although page 2 repeats five of page 1', async () => {
		const { keyword, ids } = addKeywordVideos(sim(), 200);
		const shift = shiftAfterPageOne(keyword);
		const run = await search({ query: keyword, returnAll: true });
		expect(run.error).toBeUndefined();
		// The catalogue changed before page 2 was asked for, so page 2 overlapped page 1.
		expect(shift.added).toHaveLength(5);
		expect(shift.addedBeforeRequest).toBe(1);
		expect(run.calls).toHaveLength(3);
		expect(run.items.map((item) => item.json.id)).toEqual(ids);
	});

	test('a limit still gets its count of distinct videos, with per_page unchanged', async () => {
		const { keyword, ids } = addKeywordVideos(sim(), 200);
		shiftAfterPageOne(keyword);
		const run = await search({ query: keyword, limit: 160 });
		expect(pages(run.calls)).toEqual([
			[1, 80],
			[2, 80],
			[3, 80],
		]);
		expect(run.items.map((item) => item.json.id)).toEqual(ids.slice(0, 160));
	});
});

describe('filters and sort reach the API', () => {
	test.each(['relevant', 'popular', 'recent'])('sort %s', async (sort) => {
		const { keyword } = addKeywordVideos(sim(), 3);
		const run = await search({ query: keyword, filters: { sort } });
		expect(run.error).toBeUndefined();
		expect(run.calls[0].query).toMatchObject({ q: keyword, sort });
	});

	test('sort popular and recent order the results as GridBank does', async () => {
		const keyword = `ordered${Date.now().toString(36)}`;
		const ids = sim().addEnterpriseVideos([
			{ title: 'Sample footage', keywords: [keyword], popularity: 1, publishedAt: 3_000 },
			{ title: 'Sample footage', keywords: [keyword], popularity: 3, publishedAt: 1_000 },
			{ title: 'Sample footage', keywords: [keyword], popularity: 2, publishedAt: 2_000 },
		]);
		const popular = await search({ query: keyword, filters: { sort: 'popular' } });
		expect(popular.items.map((item) => item.json.id)).toEqual([ids[1], ids[2], ids[0]]);
		const recent = await search({ query: keyword, filters: { sort: 'recent' } });
		expect(recent.items.map((item) => item.json.id)).toEqual([ids[0], ids[2], ids[1]]);
	});

	test('durationMin, durationMax and theme are sent and applied', async () => {
		const keyword = `filtered${Date.now().toString(36)}`;
		const [short, inRange, otherTheme, long] = sim().addEnterpriseVideos([
			{ title: 'Sample footage', keywords: [keyword], duration: 5, theme: 'nature' },
			{ title: 'Sample footage', keywords: [keyword], duration: 20, theme: 'nature' },
			{ title: 'Sample footage', keywords: [keyword], duration: 20, theme: 'city' },
			{ title: 'Sample footage', keywords: [keyword], duration: 90, theme: 'nature' },
		]);
		const run = await search({
			query: keyword,
			returnAll: true,
			filters: { sort: 'popular', durationMin: 10, durationMax: 60, theme: 'nature' },
		});
		expect(run.error).toBeUndefined();
		expect(run.calls).toHaveLength(1);
		expect(run.calls[0].query).toEqual({
			q: keyword,
			sort: 'popular',
			duration_min: '10',
			duration_max: '60',
			theme: 'nature',
			page: '1',
			per_page: '80',
		});
		expect(run.items.map((item) => item.json.id)).toEqual([inRange]);
		expect([short, otherTheme, long]).not.toContain(run.items[0].json.id);
	});

	test('no filter set sends only q, page and per_page', async () => {
		const { keyword } = addKeywordVideos(sim(), 2);
		const run = await search({ query: `  ${keyword}  ` });
		expect(run.calls[0].query).toEqual({ q: keyword, page: '1', per_page: '50' });
	});

	test('a 200-character query is sent', async () => {
		const query = `${'a'.repeat(100)} ${'b'.repeat(99)}`;
		expect(query).toHaveLength(200);
		const run = await search({ query });
		expect(run.error).toBeUndefined();
		expect(run.calls).toHaveLength(1);
		expect(run.calls[0].query.q).toBe(query);
		expect(run.items).toEqual([]);
	});
});

describe('bad input is refused before any request', () => {
	test.each([
		// An empty field is refused by n8n itself (required); an expression can still give "".
		['a query expression that gives ""', { query: '={{ "" }}' }, /Query is empty/],
		['a blank query', { query: '   ' }, /Query is empty/],
		[
			'a 201-character query',
			{ query: 'q'.repeat(201) },
			/Query is too long \(201 characters, at most 200\)/,
		],
		[
			'durationMin > durationMax',
			{ query: 'forest', filters: { durationMin: 30, durationMax: 10 } },
			/Min Duration \(30 s\) is greater than Max Duration \(10 s\)/,
		],
		[
			'a negative durationMin',
			{ query: 'forest', filters: { durationMin: -1 } },
			/Min Duration must be a whole number of at least 0/,
		],
		[
			'a negative durationMax',
			{ query: 'forest', filters: { durationMax: -5 } },
			/Max Duration must be a whole number of at least 0/,
		],
		[
			'a fractional duration',
			{ query: 'forest', filters: { durationMin: 2.5 } },
			/Min Duration must be a whole number/,
		],
		['a limit of 0', { query: 'forest', limit: 0 }, /Limit must be a whole number of at least 1/],
	])('%s', async (_, parameters, message) => {
		const run = await search(parameters);
		expect(run.error?.message).toMatch(message);
		expect(run.items).toEqual([]);
		expect(run.calls).toHaveLength(0);
	});
});
