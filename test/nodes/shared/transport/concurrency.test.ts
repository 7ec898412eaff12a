// Five executions at once on one Partner key share the process's pacing: together they stay
// within the account's allowance (no 429) and each returns its whole list.
import { setPartnerWindow } from '../../../harness/rate-window';
import { runPartner } from '../../../harness/run-gridbank';
import { apiCalls, useSimulator } from '../../../harness/simulator';

// GridBank's 300 requests per minute, on a 3-second clock on both sides to keep the test short.
const WINDOW_MS = 3000;
const sim = useSimulator({ partnerRatePerMinute: 300, rateWindowMs: WINDOW_MS });
beforeAll(() => setPartnerWindow(WINDOW_MS));
afterAll(() => setPartnerWindow());

test('five concurrent Return All listings on one key: 350 requests, no 429, every list complete', async () => {
	const { key } = sim().createPartnerAccount({ licences: 7000 });
	const expected = sim()
		.partnerLicences(key)
		.map((l) => l.video_key);
	sim().clearLog();
	const started = Date.now();
	const runs = await Promise.all(
		Array.from({ length: 5 }, () =>
			runPartner(
				{ operation: 'listContent', returnAll: true, options: { maxRetries: 0 } },
				{ apiKey: key },
			),
		),
	);
	const took = Date.now() - started;
	for (const run of runs) {
		expect(run.error).toBeUndefined();
		expect(run.items.map((i) => i.json.video_key)).toEqual(expected);
	}
	const calls = apiCalls(sim(), '/content');
	expect(calls).toHaveLength(350);
	expect(calls.filter((c) => c.status === 429)).toEqual([]);
	// 350 requests cannot fit in one window of 300: the pacing made the executions wait.
	expect(took).toBeGreaterThanOrEqual(WINDOW_MS - 500);
	// 350 requests through five engine runs: over the default 60 s at load 20 on n8n 1.85 (Node 20).
}, 300_000);
