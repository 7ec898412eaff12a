// Issue 33, the index bullets: both triggers keep "each new video once, never lost" when GridBank's
// `recent` index re-orders ties, lets a video in late, shifts a page mid-burst or serves short
// pages. Through n8n-core's real activation and poll executor against the simulator over HTTP.
import type { IDataObject } from 'n8n-workflow';

import { BURST_PAGES, PAGE_SIZE } from '../../../../nodes/GridBankEnterpriseTrigger/seen-state';
import { pollEnterpriseTrigger } from '../../../harness/run-gridbank';
import { useSimulator } from '../../../harness/simulator';
import { freshWord, idsOf, searchCalls } from '../../GridBankEnterpriseTrigger/helpers';

const sim = useSimulator();

let clock = Date.now() - 7 * 86_400_000;
/** `n` videos matching `word`, all published in one second (a batch upload); ids newest first by id. */
function addTied(word: string, n: number): string[] {
	const second = (clock += 10_000);
	return sim().addEnterpriseVideos(
		Array.from({ length: n }, (_, i) => ({
			title: `${word} take ${i}`,
			keywords: [word],
			publishedAt: second,
		})),
	);
}
/** `n` videos matching `word`, a second apart; ids newest first. */
function addSpread(word: string, n: number, from = (clock += 10_000 + n * 1000)): string[] {
	return sim()
		.addEnterpriseVideos(
			Array.from({ length: n }, (_, i) => ({
				title: `${word} clip ${i}`,
				keywords: [word],
				publishedAt: from - (n - i) * 1000,
			})),
		)
		.reverse();
}

/** How often each id was emitted over `runs`. */
function tally(runs: Array<{ items: Array<{ json: IDataObject }> | null }>) {
	const counts = new Map<unknown, number>();
	for (const run of runs)
		for (const id of idsOf(run.items as never)) counts.set(id, (counts.get(id) ?? 0) + 1);
	return counts;
}

test('ties re-ordered: 400 same-second videos served in other orders (re-indexes) emit nothing old', async () => {
	const word = freshWord();
	addTied(word, 400);
	const trigger = pollEnterpriseTrigger({ query: word });
	expect((await trigger.activate()).error).toBeUndefined();
	sim().reorderTies(7);
	const shuffled = await trigger.tick();
	expect(shuffled.error).toBeUndefined();
	expect(idsOf(shuffled.items)).toEqual([]);
	sim().reorderTies(11);
	expect(idsOf((await trigger.tick()).items)).toEqual([]);
	// A new video among them still comes, once.
	const [fresh] = addTied(word, 1);
	sim().reorderTies(13);
	const next = await trigger.tick();
	expect(idsOf(next.items)).toEqual([fresh]);
	sim().reorderTies(0);
	expect((await trigger.tick()).items).toBeNull();
});

test('a late entry: a video that starts matching at rank 16, below ten remembered ones, comes once', async () => {
	const word = freshWord();
	const base = (clock += 100_000);
	addSpread(word, 30, base);
	const trigger = pollEnterpriseTrigger({ query: word });
	await trigger.activate();
	// Published between the 15th and 16th newest: indexing lag, or keywords edited later.
	const [late] = sim().addEnterpriseVideos([
		{ title: `${word} late`, keywords: [word], publishedAt: base - 15 * 1000 - 500 },
	]);
	const run = await trigger.tick();
	expect(run.error).toBeUndefined();
	expect(idsOf(run.items)).toEqual([late]);
	expect((await trigger.tick()).items).toBeNull();
});

test('a withdrawal between page 1 and page 2 of a burst hides no video: 150 new, each emitted once', async () => {
	const word = freshWord();
	addSpread(word, 5);
	const trigger = pollEnterpriseTrigger({ query: word });
	await trigger.activate();
	const burst = addSpread(word, 150);
	let withdrawn = false;
	sim().afterSearchPage((page) => {
		if (page !== 1 || withdrawn) return;
		withdrawn = true;
		sim().withdrawVideos([burst[10]]);
	});
	const runs = [await trigger.tick(), await trigger.tick(), await trigger.tick()];
	expect(runs.map((run) => run.error)).toEqual([undefined, undefined, undefined]);
	const counts = tally(runs as never);
	expect(burst.filter((id) => counts.get(id) !== 1)).toEqual([]);
	expect([...counts.values()].every((count) => count === 1)).toBe(true);
});

test(`a poll reads at most ${BURST_PAGES} pages, also when pages are shorter than per_page`, async () => {
	const word = freshWord();
	addSpread(word, 3);
	const trigger = pollEnterpriseTrigger({ query: word });
	await trigger.activate();
	addSpread(word, 900);
	// GridBank serves 5 results a page while saying it has more.
	sim().afterSearchPage((_page, body) => {
		body.videos = (body.videos as unknown[]).slice(0, 5);
		body.has_more = true;
	});
	const from = sim().log.length;
	const run = await trigger.tick();
	expect(run.error).toBeUndefined();
	expect(searchCalls(sim().log.slice(from)).length).toBeLessThanOrEqual(BURST_PAGES);
	expect(idsOf(run.items)).toHaveLength(BURST_PAGES * 5);
	expect(run.items?.at(-1)?.json.hint).toMatch(/at most 10 pages/);
	expect(PAGE_SIZE).toBe(80);
});
