// Issue 23 point 3 through the real engine: an item's time in the pacer is bounded in total
// (PACED_WAIT_WINDOWS rate windows), however many requests it makes, and a cancel ends it.
import { pace } from '../../../../nodes/shared/transport/pacing';
import {
	newWaitTally,
	PACED_WAIT_WINDOWS,
	PacedTooLong,
} from '../../../../nodes/shared/transport/wait-budget';
import { cancelAfterFirstCall } from '../../../harness/cancel-run';
import { setPartnerWindow } from '../../../harness/rate-window';
import { PROMPTLY_MS } from '../../../harness/time-bounds';
import { runPartner } from '../../../harness/run-gridbank';
import { apiCalls, useSimulator } from '../../../harness/simulator';

const sim = useSimulator();
afterEach(() => setPartnerWindow());

test('pure, on a fake clock: one tally across requests; past its bound, PacedTooLong instead of another wait', async () => {
	jest.useFakeTimers({ now: Date.UTC(2025, 0, 1) });
	try {
		const tally = newWaitTally();
		const outcome = (async () => {
			for (let i = 0; i < 100; i++)
				(await pace('key-budget', { requestsPerWindow: 1, rateWindowMs: 100 }, undefined, tally))();
		})().catch((error: unknown) => error);
		await jest.advanceTimersByTimeAsync(100 * 1000);
		expect(await outcome).toBeInstanceOf(PacedTooLong);
		// Waits were slept and counted, up to the bound and never past it.
		expect(tally.pacedMs).toBeGreaterThan(0);
		expect(tally.pacedMs).toBeLessThanOrEqual(PACED_WAIT_WINDOWS * 100);
	} finally {
		jest.useRealTimers();
	}
});

test('a server that keeps saying "nothing left, wait a second": the listing fails after 5 windows of waiting, saying why', async () => {
	// The pacer's window on a 1 s clock: the bound is then 5 s in total.
	setPartnerWindow(1000);
	sim().faults.rateHeaders({ remaining: 0, resetInSeconds: 1, path: '/content' }, 100);
	const run = await runPartner({
		operation: 'listContent',
		returnAll: true,
		options: { maxRetries: 0 },
	});
	expect(run.error?.message).toBe(
		"GridBank's rate limit kept this item waiting more than 5 seconds in total",
	);
	expect(run.error?.description).toMatch(/Run the workflow again later, or read less/);
	expect((run.error as { httpCode?: string }).httpCode).toBe('429');
	// 13 pages of 100 would be needed; each waited about a second.
	const calls = apiCalls(sim(), '/content').length;
	expect(calls).toBeGreaterThanOrEqual(3);
	expect(calls).toBeLessThan(13);
}, 60_000);

test('cancel while the pacer waits for the Reset (50 s away): the run ends at once', async () => {
	sim().faults.rateHeaders({ remaining: 0, resetInSeconds: 50, path: '/content' });
	const { run, endedAfterMs } = await cancelAfterFirstCall(sim(), (onStart) =>
		runPartner({ operation: 'listContent', limit: 150 }, { onStart }),
	);
	expect(endedAfterMs).toBeLessThan(PROMPTLY_MS);
	expect(run.run.status).toBe('canceled');
	expect(apiCalls(sim(), '/content')).toHaveLength(1);
}, 30_000);
