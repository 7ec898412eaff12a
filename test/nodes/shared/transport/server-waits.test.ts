// Issue 23 (time) through the real engine: GridBank's Retry-After is the wait of a retry whatever
// X-RateLimit-* say, and no wait taken from a Reset (a server clock an hour fast, a Reset
// "tomorrow", a corrupt value) outlasts one rate window before a request goes out to ask again.
import { setPartnerWindow } from '../../../harness/rate-window';
import { pollTrigger, runEnterprise, runPartner } from '../../../harness/run-gridbank';
import { useSimulator } from '../../../harness/simulator';
import { ASKED_WAIT_CEILING_MS } from '../../../harness/time-bounds';

const sim = useSimulator();
afterEach(() => setPartnerWindow());

const gapsOf = (path: string) => {
	const times = sim()
		.log.filter((e) => e.target === 'api' && e.path.includes(path))
		.map((e) => e.at);
	return times.slice(1).map((t, i) => t - times[i]);
};

/** The retry came about 3 s after the 429 (generous bounds for a loaded 2-core machine). */
const expectRetriedAfterRetryAfter = (path: string) => {
	const [gap] = gapsOf(path);
	expect(gap).toBeGreaterThanOrEqual(2500);
	expect(gap).toBeLessThan(ASKED_WAIT_CEILING_MS);
};

/** GridBank's documented 429: Retry-After 3, nothing left, the Reset a minute ahead. */
const burstRefusal = (path: string) => {
	sim().faults.failNext({ status: 429, count: 1, retryAfter: '3', path });
	sim().faults.rateHeaders({ remaining: 0, resetInSeconds: 60, path });
};

describe('a 429 with Retry-After: 3 and the rate headers is retried after about 3 s, not a minute', () => {
	test('Partner', async () => {
		burstRefusal('/content');
		const run = await runPartner({ operation: 'listContent', limit: 1 });
		expect(run.error).toBeUndefined();
		expect(run.calls.map((c) => c.status)).toEqual([429, 200]);
		expectRetriedAfterRetryAfter('/content');
	}, 90_000);

	test('the Partner Trigger', async () => {
		burstRefusal('/content');
		const activation = await pollTrigger({}).activate();
		expect(activation.error).toBeUndefined();
		expectRetriedAfterRetryAfter('/content');
	}, 90_000);

	test('Enterprise', async () => {
		burstRefusal('/usage/me');
		const run = await runEnterprise({ resource: 'usage', operation: 'get' });
		expect(run.error).toBeUndefined();
		expectRetriedAfterRetryAfter('/usage/me');
	}, 90_000);
});

describe('a 200 with nothing left and a Reset not to be taken at face value: the next request within one window', () => {
	// The pacer's window on a 2 s clock: "one window plus a small margin" is then about 3 s.
	const WINDOW_MS = 2000;
	test.each([
		['an hour ahead', { resetInSeconds: 3600 }],
		['"tomorrow" (a day ahead)', { resetInSeconds: 86_400 }],
		['999999999', { reset: '999999999' }],
		['1e12', { reset: '1e12' }],
		['two hours in the past', { resetInSeconds: -7200 }],
		['not a number', { reset: 'soon' }],
	])(
		'Reset %s',
		async (_name, reset) => {
			setPartnerWindow(WINDOW_MS);
			sim().faults.rateHeaders({ remaining: 0, ...reset, path: '/content' });
			const run = await runPartner({ operation: 'listContent', limit: 150 });
			expect(run.error).toBeUndefined();
			expect(run.items).toHaveLength(150);
			const [gap] = gapsOf('/content');
			// Far below the hour or day the Reset says (the pure checks in rate-reset.test.ts pin the window).
			expect(gap).toBeLessThan(ASKED_WAIT_CEILING_MS);
		},
		60_000,
	);
});
