// The GridBank Enterprise Trigger through n8n-core's real activation, poll executor and
// PollContext, against the simulator over HTTP: what each poll emits, what it costs, what it
// remembers about its search.
import {
	BURST_LIMIT,
	BURST_PAGES,
	KEEP_KEYS,
} from '../../../nodes/GridBankEnterpriseTrigger/seen-state';
import { useSimulator } from '../../harness/simulator';
import { pollEnterpriseTrigger } from '../../harness/run-gridbank';
import { addMatching, freshWord, idsOf, searchCalls } from './helpers';

const sim = useSimulator();

/** The search requests made while `run` ran. */
async function counted<T>(run: () => Promise<T>) {
	const from = sim().log.length;
	const result = await run();
	return { result, calls: searchCalls(sim().log.slice(from)) };
}

describe('first activation', () => {
	test('only notes what matches: one request of the newest 80, sorted recent, nothing emitted', async () => {
		const word = freshWord();
		const ids = addMatching(sim(), word, 30);
		const trigger = pollEnterpriseTrigger({ query: word, filters: { durationMax: 120 } });
		const { result, calls } = await counted(() => trigger.activate());
		expect(result.error).toBeUndefined();
		expect(result.items).toBeNull();
		expect(calls.map((call) => call.query)).toEqual([
			expect.objectContaining({
				q: word,
				sort: 'recent',
				page: '1',
				per_page: '80',
				duration_max: '120',
			}),
		]);
		expect(trigger.nodeState?.keys).toEqual(ids);

		const next = await counted(() => trigger.tick());
		expect(next.result.items).toBeNull();
		expect(next.calls).toHaveLength(1);
	});

	test('Include Existing Videos emits the newest Max Existing Videos, newest first, once', async () => {
		const word = freshWord();
		const ids = addMatching(sim(), word, 100);
		const trigger = pollEnterpriseTrigger({
			query: word,
			options: { includeExisting: true, maxExisting: 90 },
		});
		const { result, calls } = await counted(() => trigger.activate());
		expect(idsOf(result.items)).toEqual(ids.slice(0, 90));
		expect(calls).toHaveLength(2);
		const [added] = addMatching(sim(), word, 1);
		expect(idsOf((await trigger.tick()).items)).toEqual([added]);
		expect((await trigger.tick()).items).toBeNull();
		// Only the first activation: a restart emits nothing old.
		expect((await trigger.restart()).items).toBeNull();
	});

	test('Max Existing Videos above the burst bound is refused before any request', async () => {
		const trigger = pollEnterpriseTrigger({
			query: freshWord(),
			options: { includeExisting: true, maxExisting: BURST_LIMIT + 1 },
		});
		const { result, calls } = await counted(() => trigger.activate());
		expect(result.error?.message).toContain(
			`Max Existing Videos must be a whole number from 1 to ${BURST_LIMIT}`,
		);
		expect(calls).toHaveLength(0);
	});
});

describe('new videos', () => {
	test('each new match comes once, newest first; what was seen survives a restart', async () => {
		const word = freshWord();
		addMatching(sim(), word, 20);
		const trigger = pollEnterpriseTrigger({ query: word });
		await trigger.activate();
		const added = addMatching(sim(), word, 2);
		const { result, calls } = await counted(() => trigger.tick());
		expect(idsOf(result.items)).toEqual(added);
		expect(calls).toHaveLength(1);
		expect((await trigger.tick()).items).toBeNull();
		expect((await trigger.restart()).items).toBeNull();
		const later = addMatching(sim(), word, 1);
		expect(idsOf((await trigger.tick()).items)).toEqual(later);
	});

	test('a burst is read page by page until known videos come, and each comes once', async () => {
		const word = freshWord();
		addMatching(sim(), word, 30);
		const trigger = pollEnterpriseTrigger({ query: word });
		await trigger.activate();
		const burst = addMatching(sim(), word, 200);
		const { result, calls } = await counted(() => trigger.tick());
		expect(idsOf(result.items)).toEqual(burst);
		expect(calls.map((call) => call.query.page)).toEqual(['1', '2', '3']);
		expect(result.items?.every((item) => item.json.hint === undefined)).toBe(true);
		// The poll after a burst re-reads its pages once (a video a withdrawal between pages hid
		// is found there); quiet polls after that read one page.
		const recheck = await counted(() => trigger.tick());
		expect(recheck.result.items).toBeNull();
		expect(recheck.calls).toHaveLength(3);
		const quiet = await counted(() => trigger.tick());
		expect(quiet.result.items).toBeNull();
		expect(quiet.calls).toHaveLength(1);
	});

	test(`a burst beyond ${BURST_PAGES} pages emits the newest ${BURST_LIMIT} with a hint on the last item`, async () => {
		const word = freshWord();
		addMatching(sim(), word, 5);
		const trigger = pollEnterpriseTrigger({ query: word });
		await trigger.activate();
		const burst = addMatching(sim(), word, BURST_LIMIT + 100);
		const { result, calls } = await counted(() => trigger.tick());
		expect(idsOf(result.items)).toEqual(burst.slice(0, BURST_LIMIT));
		expect(calls).toHaveLength(BURST_PAGES);
		expect(result.items?.at(-1)?.json.hint).toMatch(
			new RegExp(`More than ${BURST_LIMIT} new videos .* Poll more often or narrow the search`),
		);
		expect(result.items?.filter((item) => item.json.hint)).toHaveLength(1);
		expect((await trigger.tick()).items).toBeNull();
	});

	test('videos that move up the ranking, or drop out of the search and come back, are not emitted again', async () => {
		const word = freshWord();
		const ids = addMatching(sim(), word, 30);
		const trigger = pollEnterpriseTrigger({ query: word });
		await trigger.activate();
		sim().republishVideo(ids[20]);
		sim().withdrawVideos([ids[3], ids[25]]);
		expect((await trigger.tick()).items).toBeNull();
		sim().restoreVideos([ids[3], ids[25]]);
		expect((await trigger.tick()).items).toBeNull();
		const [added] = addMatching(sim(), word, 1);
		sim().republishVideo(ids[10], Date.now() + 60_000);
		expect(idsOf((await trigger.tick()).items)).toEqual([added]);
	});

	test(`the memory holds the ${KEEP_KEYS} most recently listed ids`, async () => {
		const word = freshWord();
		addMatching(sim(), word, 10);
		const trigger = pollEnterpriseTrigger({ query: word });
		await trigger.activate();
		for (let burst = 0; burst < 2; burst++) {
			addMatching(sim(), word, 600);
			expect((await trigger.tick()).items).toHaveLength(600);
		}
		const keys = trigger.nodeState?.keys as string[];
		expect(keys).toHaveLength(KEEP_KEYS);
		expect(new Set(keys).size).toBe(KEEP_KEYS);
		expect(JSON.stringify(trigger.nodeState).length).toBeLessThan(KEEP_KEYS * 60);
	});
});

describe('the search it belongs to', () => {
	test('another query starts afresh: the first poll of the new search notes only (or emits its existing ones)', async () => {
		const first = freshWord();
		const second = freshWord();
		addMatching(sim(), first, 5);
		const newest = addMatching(sim(), second, 20);
		const before = pollEnterpriseTrigger({ query: first });
		await before.activate();
		const after = pollEnterpriseTrigger(
			{ query: second, options: { includeExisting: true, maxExisting: 3 } },
			{ staticData: before.staticData },
		);
		// Without starting afresh all 20 would count as new; afresh, only the 3 existing asked for come.
		expect(idsOf((await after.activate()).items)).toEqual(newest.slice(0, 3));
		expect(after.nodeState?.search).toContain(second);
		expect((await after.tick()).items).toBeNull();
	});

	test('Output Format or Download File are no part of the search: changing them keeps the memory', async () => {
		const word = freshWord();
		addMatching(sim(), word, 5);
		const before = pollEnterpriseTrigger({ query: word });
		await before.activate();
		const [added] = addMatching(sim(), word, 1);
		const after = pollEnterpriseTrigger(
			{ query: word, options: { outputFormat: 'video' } },
			{ staticData: before.staticData },
		);
		expect(idsOf((await after.activate()).items)).toEqual([added]);
	});
});

describe('Fetch Test Event', () => {
	test('returns the newest match and leaves what the live trigger remembers alone', async () => {
		const word = freshWord();
		addMatching(sim(), word, 5);
		const trigger = pollEnterpriseTrigger({ query: word });
		await trigger.activate();
		const saved = JSON.stringify(trigger.staticData);
		const [added] = addMatching(sim(), word, 1);
		const { result, calls } = await counted(() => trigger.manual());
		expect(idsOf(result.items)).toEqual([added]);
		expect(result.items?.[0].json.search_id).toEqual(expect.any(String));
		expect(calls.map((call) => call.query.per_page)).toEqual(['1']);
		expect(JSON.stringify(trigger.staticData)).toBe(saved);
		expect(idsOf((await trigger.tick()).items)).toEqual([added]);
	});

	test('with no match: an error that says so', async () => {
		const trigger = pollEnterpriseTrigger({ query: freshWord() });
		const { result } = await counted(() => trigger.manual());
		expect(result.error?.message).toBe('No video matches this search yet');
	});
});

test('a bad search is refused before any request', async () => {
	const trigger = pollEnterpriseTrigger({
		query: 'drone',
		filters: { durationMin: 50, durationMax: 10 },
	});
	const { result, calls } = await counted(() => trigger.activate());
	expect(result.error?.message).toContain(
		'Min Duration (50 s) is greater than Max Duration (10 s)',
	);
	expect(calls).toHaveLength(0);
});
