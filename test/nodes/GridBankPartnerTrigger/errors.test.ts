// A poll that fails says what the Partner node says for the same condition, carries n8n's typed
// failure cause (n8n classifies the tick by it), moves no state, and loses no licence.
import { coreMajor, triggersAndPollers } from '../../harness/engine';
import { useSimulator } from '../../harness/simulator';
import { pollTrigger, runPartner } from '../../harness/run-gridbank';
import { keysOf, listCalls, nowSeconds } from './helpers';

const sim = useSimulator();

/** How n8n classified each finished poll tick ('auth', 'rate_limited', 'thrown'). */
const ticks: Array<{ status: string; errorKind?: string }> = [];
const onTick = (tick: { status: string; errorKind?: string }) => ticks.push(tick);
beforeAll(() => triggersAndPollers().events?.on('poll-tick-completed', onTick));
afterAll(() => triggersAndPollers().events?.off('poll-tick-completed', onTick));
beforeEach(() => ticks.splice(0));
/** n8n-core 1.x has no failure causes and no tick events (npm run test:matrix): their absence must break nothing else. */
const typed = coreMajor >= 2;
const cause = <T>(failure: T): T | undefined => (typed ? failure : undefined);
const expectTick = (tick: { status: string; errorKind: string }) =>
	typed ? expect(ticks.at(-1)).toEqual(expect.objectContaining(tick)) : expect(ticks).toEqual([]);
/** n8n 2.x shows our description on its activation error; 1.x keeps only our message (in its own) and drops the description. */
const expectActivationDescription = (
	error: (Error & { description?: string | null }) | undefined,
	description: string | null | undefined,
) =>
	typed
		? expect(error?.description).toBe(description)
		: expect(error?.description ?? undefined).toBeUndefined();

const account = (licences = 10) => sim().createPartnerAccount({ licences }).key;
const settled = () => nowSeconds() - 3600;

/** The Partner node's error for the same condition: the trigger must say the same. */
async function actionNodeError(apiKey: string) {
	const run = await runPartner(
		{ operation: 'listContent', returnAll: false, limit: 1 },
		{ apiKey },
	);
	expect(run.error).toBeDefined();
	return { message: run.error?.message, description: run.error?.description };
}

/** The parts of an error a user and n8n see. */
const shown = (error: unknown) => {
	const { message, description, httpCode, failure } = error as Record<string, unknown>;
	return { message, description, httpCode, failure };
};

async function activeTrigger(key: string, parameters: Record<string, unknown> = {}) {
	const trigger = pollTrigger(parameters, { apiKey: key });
	expect((await trigger.activate()).error).toBeUndefined();
	return trigger;
}

describe('access errors fail the poll with the Partner node messages', () => {
	test('401: a key revoked while the workflow is active', async () => {
		const key = account();
		const trigger = await activeTrigger(key);
		const state = trigger.nodeState;
		sim().addPartnerLicences(key, 2, { purchasedAt: settled() });
		sim().faults.revokeKey(key);

		const poll = await trigger.tick();
		expect(poll.items).toBeNull();
		expect(shown(poll.error)).toEqual({
			...(await actionNodeError(key)),
			httpCode: '401',
			failure: cause({ cause: 'credential-invalid' }),
		});
		expect(poll.error?.message).toMatch(/key is missing, malformed or revoked/);
		expect(poll.error?.description).toMatch(/create a new key in GridBank account settings/);
		expectTick({ status: 'error', errorKind: 'auth' });
		expect(poll.staticDataChanged).toBe(false);
		expect(trigger.nodeState).toEqual(state);
	});

	test('401 at activation: publishing the workflow fails, showing the same message and description', async () => {
		const key = account();
		sim().faults.revokeKey(key);
		const activation = await pollTrigger({}, { apiKey: key }).activate();
		const expected = await actionNodeError(key);
		// n8n wraps it: "There was a problem activating the workflow: "<message>"", with our description.
		expect(activation.error?.message).toBe(
			`There was a problem activating the workflow: "${expected.message}"`,
		);
		expectActivationDescription(activation.error, expected.description);
		expectTick({ status: 'error', errorKind: 'auth' });
	});

	test('403 partner_access_revoked: withdrawn access, which a new key will not fix', async () => {
		const key = account();
		const trigger = await activeTrigger(key);
		sim().faults.withdrawPartnerAccess(key);
		const poll = await trigger.tick();
		expect(shown(poll.error)).toEqual({
			...(await actionNodeError(key)),
			httpCode: '403',
			failure: cause({ cause: 'credential-invalid' }),
		});
		expect(poll.error?.message).toBe('Partner API access has been withdrawn for this account');
		expectTick({ status: 'error', errorKind: 'auth' });
	});

	test('access withdrawn on page 2 of a backlog: nothing is emitted and the state does not move', async () => {
		const key = account();
		const trigger = await activeTrigger(key);
		const state = trigger.nodeState;
		sim().addPartnerLicences(key, 150, { purchasedAt: settled() });
		sim().faults.withdrawPartnerAccess(key, { afterRequests: 1 });
		sim().clearLog();
		const poll = await trigger.tick();
		expect(poll.items).toBeNull();
		expect(poll.error?.message).toBe('Partner API access has been withdrawn for this account');
		expect(listCalls(sim(), key).map((call) => call.status)).toEqual([200, 403]);
		expect(trigger.nodeState).toEqual(state);
	});

	test('a key not in apik_<id>.<secret> form fails activation before any request', async () => {
		const activation = await pollTrigger({}, { apiKey: 'sk_live_not-a-partner-key' }).activate();
		expect(sim().log.filter((entry) => entry.target === 'api')).toHaveLength(0);
		const expected = await actionNodeError('sk_live_not-a-partner-key');
		expect(expected.message).toMatch(/not in GridBank's format/);
		expect(activation.error?.message).toBe(
			`There was a problem activating the workflow: "${expected.message}"`,
		);
		expectActivationDescription(activation.error, expected.description);
	});
});

describe('429 and 5xx follow the shared retry policy', () => {
	test('429 with Retry-After: 1 is waited out, then the poll succeeds', async () => {
		const key = account();
		const trigger = await activeTrigger(key);
		const bought = sim().addPartnerLicences(key, 2, { purchasedAt: settled() });
		sim().faults.failNext({ status: 429, count: 1, path: '/partner/v1/content', retryAfter: '1' });
		sim().clearLog();
		const started = Date.now();
		const poll = await trigger.tick();
		expect(poll.error).toBeUndefined();
		expect(keysOf(poll.items)).toEqual(bought);
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		expect(listCalls(sim(), key).map((call) => call.status)).toEqual([429, 200]);
	});

	test('503 twice, then success: backoff and retry inside one poll', async () => {
		const key = account();
		const trigger = await activeTrigger(key);
		const bought = sim().addPartnerLicences(key, 1, { purchasedAt: settled() });
		sim().faults.failNext({ status: 503, count: 2, path: '/partner/v1/content' });
		sim().clearLog();
		const poll = await trigger.tick();
		expect(keysOf(poll.items)).toEqual(bought);
		expect(listCalls(sim(), key).map((call) => call.status)).toEqual([503, 503, 200]);
	});

	test('429 with Max Retries 0 fails the poll as rate limited; the licences come with the next poll', async () => {
		const key = account();
		const trigger = await activeTrigger(key, { options: { maxRetries: 0 } });
		const state = trigger.nodeState;
		const bought = sim().addPartnerLicences(key, 3, { purchasedAt: settled() });
		sim().faults.failNext({ status: 429, count: 1, path: '/partner/v1/content', retryAfter: '7' });
		const failed = await trigger.tick();
		expect(shown(failed.error)).toMatchObject({
			message: expect.stringMatching(
				/^Rate limit exceeded after 0 retries \(tried 1 time over \d+ seconds?\)$/,
			),
			httpCode: '429',
			failure: cause({ cause: 'rate-limited', retryAfterMs: 7000 }),
		});
		expect(failed.error?.description).toMatch(/per account, not per key/);
		expectTick({ status: 'error', errorKind: 'rate_limited' });
		expect(trigger.nodeState).toEqual(state);

		expect(keysOf((await trigger.tick()).items)).toEqual(bought);
	});

	test('500 after the retries: a temporary fault, and nothing is lost', async () => {
		const key = account();
		const trigger = await activeTrigger(key, { options: { maxRetries: 1 } });
		const bought = sim().addPartnerLicences(key, 2, { purchasedAt: settled() });
		sim().faults.failNext({ status: 500, count: 2, path: '/partner/v1/content' });
		const failed = await trigger.tick();
		expect(shown(failed.error)).toMatchObject({
			message: 'GridBank had a temporary fault (HTTP 500)',
			httpCode: '500',
			failure: cause({ cause: 'temporarily-unavailable' }),
		});
		expect(keysOf((await trigger.tick()).items)).toEqual(bought);
	});
});
