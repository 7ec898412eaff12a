// The GridBank Partner Trigger through n8n-core's real activation, poll executor and PollContext,
// against the simulator over HTTP: what each poll emits, what it costs, what it remembers.
import { DEMO_PARTNER_KEY, DEMO_PARTNER_OWNER_KEY } from '../../../simulator';
import { coreMajor } from '../../harness/engine';
import { useSimulator } from '../../harness/simulator';
import { pollTrigger } from '../../harness/run-gridbank';
import { keysOf, listCalls, nowSeconds, visibleKeys, type State } from './helpers';

const sim = useSimulator();

const account = (licences: number) => sim().createPartnerAccount({ licences }).key;
/** A purchase time old enough that no new purchase can still get it (more than 10 minutes ago). */
const settled = () => nowSeconds() - 3600;

describe('first activation', () => {
	test('emits nothing old, costs one request and remembers the newest purchase', async () => {
		const key = account(30);
		const trigger = pollTrigger({}, { apiKey: key });
		const activation = await trigger.activate();
		expect(activation.error).toBeUndefined();
		expect(activation.items).toBeNull();
		expect(listCalls(sim(), key)).toHaveLength(1);
		expect(listCalls(sim(), key)[0].query).toEqual({ per_page: '100' });
		const newest = sim().partnerLicences(key)[0];
		expect(trigger.nodeState).toMatchObject({
			since: newest.purchased_at + 1,
			keys: [newest.video_key],
		});

		const next = await trigger.tick();
		expect(next.items).toBeNull();
		expect(listCalls(sim(), key)).toHaveLength(2);
	});

	test('Include Existing Licences emits the newest existing ones, up to the cap, newest first, once', async () => {
		const key = account(250);
		const trigger = pollTrigger(
			{ options: { includeExisting: true, maxExisting: 120 } },
			{ apiKey: key },
		);
		const activation = await trigger.activate();
		expect(keysOf(activation.items)).toEqual(visibleKeys(sim(), key).slice(0, 120));
		expect(listCalls(sim(), key)).toHaveLength(2);

		sim().addPartnerLicences(key, 1);
		const next = await trigger.tick();
		expect(keysOf(next.items)).toEqual(visibleKeys(sim(), key).slice(0, 1));
		expect((await trigger.tick()).items).toBeNull();
	});

	test('Include Existing Licences applies to the first activation only, not to a restart', async () => {
		const key = account(5);
		const trigger = pollTrigger(
			{ options: { includeExisting: true, maxExisting: 3 } },
			{ apiKey: key },
		);
		expect((await trigger.activate()).items).toHaveLength(3);
		const restarted = await trigger.restart();
		expect(restarted.error).toBeUndefined();
		expect(restarted.items).toBeNull();
	});

	test('an account without licences: everything licensed after activation is new', async () => {
		const key = account(0);
		const trigger = pollTrigger({}, { apiKey: key });
		expect((await trigger.activate()).items).toBeNull();
		expect(trigger.nodeState).toMatchObject({ since: null, keys: [] });
		const bought = sim().addPartnerLicences(key, 3, { purchasedAt: settled() });
		expect(keysOf((await trigger.tick()).items)).toEqual(bought);
		expect((await trigger.tick()).items).toBeNull();
	});

	test('Poll Times under a minute are refused by n8n at activation, before any request', async () => {
		const key = account(3);
		const trigger = pollTrigger(
			{
				pollTimes: { item: [{ mode: 'custom', cronExpression: '*/10 * * * * *' }] },
			},
			{ apiKey: key },
		);
		const activation = await trigger.activate();
		expect(activation.error?.message).toMatch(/polling interval is too short/);
		// n8n 1.x runs the activation poll before it checks the interval (one list call); 2.x checks first.
		expect(listCalls(sim(), key)).toHaveLength(coreMajor >= 2 ? 0 : 1);
	});
});

describe('new licences between polls', () => {
	test('each is emitted once, newest purchase first, with the API fields', async () => {
		const key = account(10);
		const trigger = pollTrigger({}, { apiKey: key });
		await trigger.activate();
		const at = settled();
		const older = sim().addPartnerLicences(key, 2, { purchasedAt: at });
		const newer = sim().addPartnerLicences(key, 1, { purchasedAt: at + 60 });
		const poll = await trigger.tick();
		expect(keysOf(poll.items)).toEqual([...newer, ...older]);
		expect(poll.items?.[0].json).toEqual(
			expect.objectContaining({
				video_key: newer[0],
				purchased_at: at + 60,
				creator: expect.objectContaining({ id: expect.any(String) }),
			}),
		);
		expect(Object.keys(poll.items?.[0].json ?? {}).sort()).toEqual(
			[
				'creator',
				'duration_seconds',
				'preview_url',
				'purchased_at',
				'thumbnail_url',
				'title',
				'video_key',
			].sort(),
		);
		expect((await trigger.tick()).items).toBeNull();
	});

	test('several purchases in one second are all emitted, even those bought after that second was first seen', async () => {
		const key = account(10);
		const trigger = pollTrigger({}, { apiKey: key });
		await trigger.activate();
		const second = nowSeconds();
		sim().addPartnerLicences(key, 2, {
			purchasedAt: second,
			videoKeys: ['m-first-purchase', 'm-second-purchase'],
		});
		expect(keysOf((await trigger.tick()).items)).toEqual(['m-first-purchase', 'm-second-purchase']);

		// Two more in the same second, listed before and after the ones already seen: stopping at
		// the first seen video would miss the second one.
		sim().addPartnerLicences(key, 2, {
			purchasedAt: second,
			videoKeys: ['a-bought-later', 'z-bought-later'],
		});
		expect(visibleKeys(sim(), key).slice(0, 4)).toEqual([
			'a-bought-later',
			'm-first-purchase',
			'm-second-purchase',
			'z-bought-later',
		]);
		const poll = await trigger.tick();
		expect(keysOf(poll.items)).toEqual(['a-bought-later', 'z-bought-later']);
		expect(listCalls(sim(), key)).toHaveLength(3);
		expect((await trigger.tick()).items).toBeNull();
	});

	test('a purchase recorded late, timed just before the newest one seen, is still emitted', async () => {
		const key = account(10);
		const trigger = pollTrigger({}, { apiKey: key });
		await trigger.activate();
		const [first] = sim().addPartnerLicences(key, 1, { purchasedAt: nowSeconds() });
		expect(keysOf((await trigger.tick()).items)).toEqual([first]);
		const late = sim().addPartnerLicences(key, 1, { purchasedAt: nowSeconds() - 30 });
		expect(keysOf((await trigger.tick()).items)).toEqual(late);
	});

	test("team owner's licences: emitted like the member's; a video both license is emitted once", async () => {
		sim().reset();
		const trigger = pollTrigger();
		await trigger.activate();
		const second = nowSeconds();
		const [mine] = sim().addPartnerLicences(DEMO_PARTNER_KEY, 1, {
			purchasedAt: second,
			videoKeys: ['member-clip'],
		});
		const [owners] = sim().addPartnerLicences(DEMO_PARTNER_OWNER_KEY, 1, {
			purchasedAt: second,
			videoKeys: ['owner-clip'],
		});
		expect(keysOf((await trigger.tick()).items)).toEqual([mine, owners]);

		// The owner licenses the member's clip too: it comes back on top with a newer purchase time.
		sim().addPartnerLicences(DEMO_PARTNER_OWNER_KEY, 1, {
			purchasedAt: second + 5,
			videoKeys: ['member-clip'],
		});
		expect(sim().partnerLicences(DEMO_PARTNER_KEY)[0]).toEqual({
			video_key: 'member-clip',
			purchased_at: second + 5,
		});
		const [fresh] = sim().addPartnerLicences(DEMO_PARTNER_OWNER_KEY, 1, {
			purchasedAt: second + 6,
		});
		expect(keysOf((await trigger.tick()).items)).toEqual([fresh]);
	});
});

describe('request cost', () => {
	test('a burst of 250 new licences in one second: each emitted once, in list order, in three requests', async () => {
		const key = account(40);
		const trigger = pollTrigger({}, { apiKey: key });
		await trigger.activate();
		sim().clearLog();
		const burst = sim().addPartnerLicences(key, 250, { purchasedAt: settled() });
		const poll = await trigger.tick();
		expect(poll.items).toHaveLength(250);
		expect(keysOf(poll.items)).toEqual(burst);
		expect(keysOf(poll.items)).toEqual(visibleKeys(sim(), key).slice(0, 250));
		expect(new Set(keysOf(poll.items)).size).toBe(250);
		// ceil(251 / 100): the third page holds the last 50 and the first video already handled.
		const calls = listCalls(sim(), key);
		expect(calls).toHaveLength(3);
		expect(calls.map((call) => call.query.per_page)).toEqual(['100', '100', '100']);
		expect(calls[0].query.cursor).toBeUndefined();
		expect(calls[1].query.cursor).toEqual(expect.any(String));

		const quiet = await trigger.tick();
		expect(quiet.items).toBeNull();
		expect(listCalls(sim(), key)).toHaveLength(4);
	});

	test('a quiet poll costs exactly one request, and changes nothing n8n would have to save', async () => {
		const key = account(40);
		const trigger = pollTrigger({}, { apiKey: key });
		await trigger.activate();
		sim().addPartnerLicences(key, 3, { purchasedAt: nowSeconds() });
		expect((await trigger.tick()).items).toHaveLength(3);
		const saved = trigger.nodeState;
		const saves = trigger.saves;
		sim().clearLog();

		for (let i = 0; i < 3; i++) {
			const quiet = await trigger.tick();
			expect(quiet.items).toBeNull();
			expect(quiet.staticDataChanged).toBe(false);
		}
		expect(listCalls(sim(), key)).toHaveLength(3);
		expect(listCalls(sim(), key).every((call) => call.query.cursor === undefined)).toBe(true);
		expect(trigger.saves).toBe(saves);
		expect(trigger.nodeState).toEqual(saved);
	});

	test('while a bulk purchase of 250 in the current second can still grow, quiet polls re-read that second', async () => {
		const key = account(10);
		const trigger = pollTrigger({}, { apiKey: key });
		await trigger.activate();
		const second = nowSeconds();
		sim().addPartnerLicences(key, 250, { purchasedAt: second });
		expect((await trigger.tick()).items).toHaveLength(250);
		sim().clearLog();
		expect((await trigger.tick()).items).toBeNull();
		expect(listCalls(sim(), key)).toHaveLength(3);
		const state = trigger.nodeState as State;
		expect(state.since).toBeLessThanOrEqual(second);
		expect(state.keys).toHaveLength(250 + 1);
	});
});

describe('state across restarts', () => {
	test('n8n restarts: licences bought while it was down are emitted by the first poll, nothing twice', async () => {
		const key = account(20);
		const trigger = pollTrigger({}, { apiKey: key });
		await trigger.activate();
		const before = sim().addPartnerLicences(key, 2, { purchasedAt: settled() });
		expect(keysOf((await trigger.tick()).items)).toEqual(before);

		await trigger.deactivate();
		const whileDown = sim().addPartnerLicences(key, 3, { purchasedAt: settled() + 10 });
		const restarted = await trigger.restart();
		expect(restarted.error).toBeUndefined();
		expect(keysOf(restarted.items)).toEqual(whileDown);
		expect((await trigger.tick()).items).toBeNull();
	});

	test('the state is what n8n saved: a new trigger given the saved static data carries on where it stopped', async () => {
		const key = account(20);
		const first = pollTrigger({}, { apiKey: key });
		await first.activate();
		sim().addPartnerLicences(key, 2, { purchasedAt: settled() });
		await first.tick();
		await first.close();

		const later = sim().addPartnerLicences(key, 1, { purchasedAt: settled() + 5 });
		const second = pollTrigger({}, { apiKey: key, staticData: first.staticData });
		expect(keysOf((await second.activate('init')).items)).toEqual(later);

		// Without the saved data it would be a first activation: nothing old.
		const fresh = pollTrigger({}, { apiKey: key });
		expect((await fresh.activate()).items).toBeNull();
	});

	test('another base URL (staging to production) starts afresh instead of trusting the old state', async () => {
		const key = account(20);
		const trigger = pollTrigger({}, { apiKey: key });
		await trigger.activate();
		const moved = { ...trigger.staticData } as Record<string, Record<string, unknown>>;
		const node = Object.keys(moved)[0];
		moved[node] = {
			...moved[node],
			baseUrl: 'https://staging.gridbank.example',
			since: 0,
			keys: [],
		};
		const other = pollTrigger({}, { apiKey: key, staticData: moved });
		expect((await other.activate()).items).toBeNull();
		expect(other.nodeState).toMatchObject({ baseUrl: sim().baseUrl });
	});
});

describe('Fetch Test Event (manual mode)', () => {
	test('returns the newest licence in one small request and leaves the state alone', async () => {
		const key = account(20);
		const trigger = pollTrigger({}, { apiKey: key });
		await trigger.activate();
		const bought = sim().addPartnerLicences(key, 2, { purchasedAt: settled() });
		const state = trigger.nodeState;
		sim().clearLog();

		const manual = await trigger.manual();
		expect(manual.error).toBeUndefined();
		expect(keysOf(manual.items)).toEqual([bought[0]]);
		expect(listCalls(sim(), key).map((call) => call.query)).toEqual([{ per_page: '1' }]);
		expect(manual.staticDataChanged).toBe(false);
		expect(trigger.nodeState).toEqual(state);

		// The test event did not consume them: the next scheduled poll still emits both.
		expect(keysOf((await trigger.tick()).items)).toEqual(bought);
	});

	test('works before the workflow was ever activated, without creating a state', async () => {
		const key = account(3);
		const trigger = pollTrigger({}, { apiKey: key });
		const manual = await trigger.manual();
		expect(keysOf(manual.items)).toEqual(visibleKeys(sim(), key).slice(0, 1));
		expect(trigger.nodeState).toBeUndefined();
	});

	test('an account without licences gets a clear message instead of an empty result', async () => {
		const trigger = pollTrigger({}, { apiKey: account(0) });
		const manual = await trigger.manual();
		expect(manual.items).toBeNull();
		expect(manual.error?.message).toBe('This account has not licensed any video yet');
	});
});
