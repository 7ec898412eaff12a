// Issue 23 point 7: a Partner list that never ends (fresh cursors, new videos on every page)
// stops at the listing ceiling, 1,000 requests (100,000 licences at 100 a page: about 3.3
// minutes at GridBank's 300 requests a minute), with an error saying how to narrow the list;
// the same for the trigger's listing. Here without a rate limit, so it takes seconds.
import {
	CEILING_REQUESTS,
	CEILING_VIDEOS,
	PageProgress,
} from '../../../../nodes/shared/transport/page-progress';
import { setPartnerWindow } from '../../../harness/rate-window';
import { pollTrigger, runPartner } from '../../../harness/run-gridbank';
import { coreMajor } from '../../../harness/engine';
import { apiCalls, useSimulator } from '../../../harness/simulator';

const sim = useSimulator({ partnerRatePerMinute: 0 });
// A 1 ms window: this process's own pacing only books requests (GridBank's limit is off here).
beforeAll(() => setPartnerWindow(1));
afterAll(() => setPartnerWindow());

test('pure: the ceiling is reached after 1,000 requests, or 100,000 videos, whichever comes first', () => {
	expect(CEILING_REQUESTS).toBe(1000);
	expect(CEILING_VIDEOS).toBe(100_000);
	const progress = new PageProgress();
	for (let page = 1; page < CEILING_REQUESTS; page++) {
		expect(progress.stalled(100)).toBe(false);
		expect(progress.atCeiling(page * 100)).toBe(false);
	}
	progress.stalled(100);
	expect(progress.atCeiling(99_999)).toBe(true);
	const few = new PageProgress();
	few.stalled(100_000);
	expect(few.atCeiling(100_000)).toBe(true);
	expect(few.atCeiling(99_999)).toBe(false);
});

const expectCeilingError = (
	error: { message?: string; description?: string | null } | undefined,
	atActivation = false,
) => {
	// At activation n8n wraps the message in "There was a problem activating the workflow".
	expect(error?.message).toMatch(
		/(^|")The list of licences was cut: it is longer than 100,000 videos \(1,000 requests\)("|$)/,
	);
	// n8n 1.x keeps only our message in its activation error and drops the description.
	if (atActivation && coreMajor < 2) return expect(error?.description ?? undefined).toBeUndefined();
	expect(error?.description).toMatch(/^Paging stopped after 1000 requests/);
	expect(error?.description).toMatch(/Purchased After/);
	expect(error?.description).toMatch(/Limit/);
};

// 1,000 pages of 100 through the engine: half a minute on a quiet machine, several on a loaded
// one with an older engine (over 120 s seen at load 20). The timeouts only catch a hang.
test('List Licensed Content, Return All: stops at the ceiling with an error saying how to narrow the list', async () => {
	sim().faults.endlessPartnerList(true);
	const run = await runPartner({ operation: 'listContent', returnAll: true });
	expectCeilingError(run.error);
	expect(apiCalls(sim(), '/content')).toHaveLength(CEILING_REQUESTS);
}, 600_000);

test("the trigger's listing stops at the same ceiling", async () => {
	sim().faults.endlessPartnerList(true);
	const activation = await pollTrigger({}).activate();
	expectCeilingError(activation.error, true);
	expect(apiCalls(sim(), '/content')).toHaveLength(CEILING_REQUESTS);
}, 600_000);
