// Failures of the Enterprise Trigger follow the Partner Trigger's rules: an account-level
// failure fails the poll and loses nothing (after recovery every video that appeared meanwhile
// comes exactly once); one video whose file cannot be delivered comes once with downloadError
// and never blocks the others.
import { storedBytes } from '../../harness/engine';
import { useSimulator } from '../../harness/simulator';
import { pollEnterpriseTrigger } from '../../harness/run-gridbank';
import { addMatching, freshWord, idsOf } from './helpers';

const sim = useSimulator();

/** An active trigger on its own Enterprise account and search, with `n` matches noted. */
async function activeTrigger(parameters: Record<string, unknown> = {}) {
	const { key } = sim().createEnterpriseAccount({ tier: 'enterprise' });
	const word = freshWord();
	addMatching(sim(), word, 5);
	const trigger = pollEnterpriseTrigger(
		{ query: word, options: { maxRetries: 1 }, ...parameters },
		{ apiKey: key },
	);
	expect((await trigger.activate()).error).toBeUndefined();
	return { key, word, trigger };
}

const SEARCH = '/external/v1/videos/search';

describe.each([
	[
		'GridBank answers 500 on every try',
		() => sim().faults.failNext({ status: 500, count: 2, path: SEARCH }),
		/500|GridBank/,
	],
	[
		'GridBank keeps answering 429',
		() => sim().faults.failNext({ status: 429, count: 2, path: SEARCH, retryAfter: '1' }),
		/Rate limit/i,
	],
	[
		'the connection is reset on every try',
		() => sim().faults.resetConnections({ count: 2, path: SEARCH }),
		/reset|connection/i,
	],
] as const)('%s', (_, fault, message) => {
	test('the poll fails, saves nothing, and after recovery each video that appeared meanwhile comes once', async () => {
		const { word, trigger } = await activeTrigger();
		const saved = JSON.stringify(trigger.staticData);
		const during = addMatching(sim(), word, 2);
		fault();
		const failed = await trigger.tick();
		expect(failed.error?.message).toMatch(message);
		expect(failed.items).toBeNull();
		expect(JSON.stringify(trigger.staticData)).toBe(saved);
		const after = addMatching(sim(), word, 1);
		expect(idsOf((await trigger.tick()).items)).toEqual([...after, ...during]);
		expect((await trigger.tick()).items).toBeNull();
	});
});

test('a revoked key (401) fails the poll without changing what it remembers', async () => {
	const { key, word, trigger } = await activeTrigger();
	const saved = JSON.stringify(trigger.staticData);
	addMatching(sim(), word, 1);
	sim().faults.revokeKey(key);
	const failed = await trigger.tick();
	expect(failed.error?.httpCode).toBe('401');
	expect(JSON.stringify(trigger.staticData)).toBe(saved);
});

test('no active subscription (403 on download) fails the poll; after renewal each video comes once with its file', async () => {
	const { key, word, trigger } = await activeTrigger({ download: true });
	const during = addMatching(sim(), word, 2);
	sim().faults.setSubscription(key, false);
	const failed = await trigger.tick();
	expect(failed.error?.httpCode).toBe('403');
	expect(failed.error?.message).toMatch(/subscription/i);
	sim().faults.setSubscription(key, true);
	const run = await trigger.tick();
	// With Download File they come oldest first.
	expect(idsOf(run.items)).toEqual([...during].reverse());
	for (const item of run.items ?? []) {
		expect(item.json.downloadError).toBeUndefined();
		expect(await storedBytes(item.binary?.data)).toBe(
			sim().getVideoFile(String(item.json.id)).size,
		);
	}
	expect((await trigger.tick()).items).toBeNull();
});

describe('Download File: one undeliverable video', () => {
	test.each([
		[
			'its master is empty (storage answers 416)',
			(id: string) => sim().setVideoFile(id, { size: 0 }),
			/empty/i,
		],
		[
			'GridBank no longer has it (404 on its download link)',
			(id: string) =>
				sim().faults.failNext({ status: 404, count: 1, path: `/videos/${id}/download` }),
			/not found|no video|404/i,
		],
	] as const)(
		'%s: it comes once with downloadError, the others with their files',
		async (_, fault, message) => {
			const { word, trigger } = await activeTrigger({ download: true });
			const added = addMatching(sim(), word, 3);
			fault(added[1]);
			const run = await trigger.tick();
			expect(run.error).toBeUndefined();
			expect(idsOf(run.items)).toEqual([...added].reverse());
			const [oldest, broken, newest] = run.items ?? [];
			expect(broken.json.downloadError).toMatch(message);
			expect(broken.binary).toBeUndefined();
			for (const item of [newest, oldest])
				expect(await storedBytes(item.binary?.data)).toBe(
					sim().getVideoFile(String(item.json.id)).size,
				);
			expect((await trigger.tick()).items).toBeNull();
		},
	);
});
