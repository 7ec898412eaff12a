// Retry-After through the real engine: honoured on 503 as on 429, garbage falls back to the
// backoff (never a zero wait), a wait above the cap fails saying what GridBank asked for.
import { runEnterprise } from '../../../harness/run-gridbank';
import { useSimulator } from '../../../harness/simulator';

const sim = useSimulator();

const gaps = () => {
	const times = sim()
		.log.filter((e) => e.target === 'api')
		.map((e) => e.at);
	return times.slice(1).map((t, i) => t - times[i]);
};

test('503 with Retry-After: 1 waits the second it asks for', async () => {
	sim().faults.failNext({ status: 503, count: 1, retryAfter: '1', path: '/usage/me' });
	const run = await runEnterprise({ resource: 'usage', operation: 'get' });
	expect(run.error).toBeUndefined();
	expect(gaps()).toHaveLength(1);
	expect(gaps()[0]).toBeGreaterThanOrEqual(990);
});

test.each(['-5', 'soon', '5, 10'])(
	'429 with Retry-After %p: the backoff, not an instant retry',
	async (retryAfter) => {
		sim().faults.failNext({ status: 429, count: 1, retryAfter, path: '/usage/me' });
		const run = await runEnterprise({ resource: 'usage', operation: 'get' });
		expect(run.error).toBeUndefined();
		// Backoff before the first retry: 250-500 ms.
		expect(gaps()[0]).toBeGreaterThanOrEqual(240);
	},
);

test.each([429, 503] as const)(
	'%i asking for 600 seconds: fails at once, saying so',
	async (status) => {
		sim().faults.failNext({ status, count: 1, retryAfter: '600', path: '/usage/me' });
		const run = await runEnterprise({ resource: 'usage', operation: 'get' });
		expect(run.items).toEqual([]);
		expect(run.error?.message).toBe(
			`GridBank asked to wait 600 seconds before the next request (HTTP ${status})`,
		);
		expect(run.error?.description).not.toMatch(/Max Retries/);
		expect(sim().log.filter((e) => e.target === 'api')).toHaveLength(1);
	},
);
