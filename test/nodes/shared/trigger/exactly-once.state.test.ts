// Issue 33, the state bullets: per-video state safe for any id, a bounded and fair backlog, work
// kept after an account-level failure, a saved state no server answer can grow past its bound,
// and state saved by 0.1.0 read by this version. Through n8n-core's real poll path.
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MAX_PENDING } from '../../../../nodes/shared/trigger/saved-state';
import { pollEnterpriseTrigger, pollTrigger } from '../../../harness/run-gridbank';
import { useSimulator } from '../../../harness/simulator';
import { freshWord, idsOf } from '../../GridBankEnterpriseTrigger/helpers';
import { keysOf, nowSeconds } from '../../GridBankPartnerTrigger/helpers';

const sim = useSimulator();
const settled = () => nowSeconds() - 3600;
const partnerKey = () => sim().createPartnerAccount({ licences: 3 }).key;
let clock = Date.now() - 3 * 86_400_000;
const addVideos = (word: string, ids: Array<string | undefined>) =>
	sim().addEnterpriseVideos(
		ids.map((id, i) => ({
			id,
			title: `${word} ${i}`,
			keywords: [word],
			publishedAt: (clock += 1000),
		})),
	);
const storageGets = (id: string) =>
	sim().log.filter((entry) => entry.target === 'storage' && entry.path.includes(id)).length;

test('ids that are object members (constructor, __proto__, toString, hasOwnProperty) are counted and given up on like any id', async () => {
	const word = freshWord();
	addVideos(word, [undefined]);
	const trigger = pollEnterpriseTrigger({
		query: word,
		download: true,
		options: { maxRetries: 0 },
	});
	await trigger.activate();
	const members = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
	addVideos(word, members);
	for (const id of members) sim().faults.storagePageFor(id, 'html');
	const given: unknown[] = [];
	const delivered: unknown[] = [];
	for (let poll = 0; poll < 3; poll++) {
		const [good] = addVideos(word, [undefined]);
		const run = await trigger.tick();
		expect(run.error).toBeUndefined();
		for (const item of run.items ?? [])
			(item.json.downloadError ? given : delivered).push(item.json.id);
		expect(delivered).toContain(good);
	}
	expect(given.sort()).toEqual([...members].sort());
	// Quiet polls neither fail nor fetch those videos again.
	const quiet = await trigger.tick();
	expect(quiet.error).toBeUndefined();
	expect(quiet.items).toBeNull();
	expect(trigger.nodeState?.failures).toBeUndefined();
});

test(`the backlog drains oldest first and holds at most ${MAX_PENDING}; the overflow comes at once with the reason`, async () => {
	const key = partnerKey();
	// A poll budget so small that each poll delivers one file.
	const trigger = pollTrigger({ download: true }, { apiKey: key, pollBudgetMs: 1 });
	await trigger.activate();
	const old = sim()
		.addPartnerLicences(key, 5, { purchasedAt: settled() - 600 })
		.reverse();
	const emitted: unknown[] = [];
	for (let poll = 0; poll < 6; poll++) {
		// A newer licence every poll cannot starve the older ones.
		sim().addPartnerLicences(key, 1, { purchasedAt: settled() + poll });
		emitted.push(...keysOf((await trigger.tick()).items));
	}
	expect(emitted.slice(0, 5)).toEqual(old);

	const burst = sim().addPartnerLicences(key, MAX_PENDING + 40, { purchasedAt: settled() + 60 });
	const run = await trigger.tick();
	const overflow = (run.items ?? []).filter((item) => item.json.downloadError);
	expect(overflow.length).toBeGreaterThanOrEqual(40);
	expect(String(overflow[0].json.downloadError)).toMatch(
		/more than 100 new videos were already waiting/,
	);
	const waiting = (trigger.nodeState?.backlog as IDataObject[]).map((video) => video.video_key);
	expect(waiting).toHaveLength(MAX_PENDING);
	// Each video is either emitted or waiting, never both, never neither.
	const all = [...keysOf(run.items), ...waiting];
	expect(new Set(all).size).toBe(all.length);
	expect(burst.every((videoKey) => all.includes(videoKey) || emitted.includes(videoKey))).toBe(
		true,
	);
});

test('a 429 after a file was delivered keeps it: emitted once, the rest waits, nothing fetched twice', async () => {
	const key = partnerKey();
	const trigger = pollTrigger({ download: true, options: { maxRetries: 0 } }, { apiKey: key });
	await trigger.activate();
	const [newer, older] = sim().addPartnerLicences(key, 2, { purchasedAt: settled() });
	sim().faults.failNext({
		status: 429,
		count: 1,
		path: `/videos/${newer}/download`,
		retryAfter: '1',
	});
	const first = await trigger.tick();
	expect(first.error).toBeUndefined();
	expect(keysOf(first.items)).toEqual([older]);
	expect((first.items as INodeExecutionData[])[0].binary).toBeDefined();
	const second = await trigger.tick();
	expect(keysOf(second.items)).toEqual([newer]);
	expect((await trigger.tick()).items).toBeNull();
	expect([storageGets(older), storageGets(newer)]).toEqual([1, 1]);
});

test('ids of 20 kB from the server: each new video once, and the saved state stays within its bound', async () => {
	const word = freshWord();
	const long = (n: number) => `${String(n).padStart(4, '0')}${'x'.repeat(20_000)}`;
	const page = (ids: string[]) => ({
		search_id: 'srch_long',
		page: 1,
		per_page: 80,
		has_more: false,
		videos: ids.map((id) => ({
			id,
			title: `${word} long`,
			duration: 5,
			width: 1920,
			height: 1080,
		})),
	});
	const ids = Array.from({ length: 60 }, (_, i) => long(i));
	const trigger = pollEnterpriseTrigger({ query: word });
	sim().faults.okBodyInstead('/videos/search', page(ids), 2);
	await trigger.activate();
	expect((await trigger.tick()).items).toBeNull();
	sim().faults.okBodyInstead('/videos/search', page([long(99), ...ids]), 2);
	expect(idsOf((await trigger.tick()).items)).toEqual([long(99)]);
	expect((await trigger.tick()).items).toBeNull();
	expect(JSON.stringify(trigger.staticData).length).toBeLessThan(60 * 51 + 1000);
});

test('state saved by 0.1.0 (pending newest first, failures as an object) is read: nothing lost, nothing twice', async () => {
	const key = partnerKey();
	const [newer, older] = sim().addPartnerLicences(key, 2, { purchasedAt: settled() });
	const licences = sim().partnerLicences(key);
	const video = (videoKey: string) => ({ ...licences.find((l) => l.video_key === videoKey) });
	const saved = {
		version: 1,
		baseUrl: sim().baseUrl,
		since: settled() - 60,
		keys: licences.map((l) => l.video_key),
		pending: [video(newer), video(older)],
		failures: { [older]: 1 },
	};
	const trigger = pollTrigger(
		{ download: true },
		{ apiKey: key, staticData: { 'node:GridBank Trigger': saved } },
	);
	const run = await trigger.activate();
	expect(run.error).toBeUndefined();
	expect(keysOf(run.items)).toEqual([older, newer]);
	expect((await trigger.tick()).items).toBeNull();
	expect(trigger.nodeState).not.toHaveProperty('pending');
	expect(trigger.nodeState).not.toHaveProperty('backlog');
});
