// The trigger can be neither silenced nor stalled: purchase times from the future do not lift
// its watermark, licences without a usable date neither force a full re-read nor grow the
// state, a video whose file alone cannot be delivered comes once with downloadError, and an
// account-level failure fails the poll without losing anything.
import type { INodeExecutionData } from 'n8n-workflow';

import { KEEP_KEYS, OVERLAP_SECONDS } from '../../../nodes/GridBankPartnerTrigger/seen-state';
import { useSimulator } from '../../harness/simulator';
import { storedBytes } from '../../harness/engine';
import { pollTrigger } from '../../harness/run-gridbank';
import { keysOf, listCalls, nowSeconds, type State } from './helpers';

const sim = useSimulator();
const account = (licences = 10) =>
	sim().createPartnerAccount({ licences, purchasedAtStart: nowSeconds() - 30 * 86_400 }).key;
const settled = () => nowSeconds() - 3600;

describe('purchase times from the future', () => {
	test('a server clock a day ahead does not silence the purchases that follow', async () => {
		const key = account();
		const trigger = pollTrigger({}, { apiKey: key });
		await trigger.activate();
		const ahead = sim().addPartnerLicences(key, 1, { purchasedAt: nowSeconds() + 86_400 });
		expect(keysOf((await trigger.tick()).items)).toEqual(ahead);
		expect((trigger.nodeState as State).since).toBeLessThanOrEqual(nowSeconds() - OVERLAP_SECONDS);

		const next = sim().addPartnerLicences(key, 2);
		expect(keysOf((await trigger.tick()).items)).toEqual(next);
		expect((await trigger.tick()).items).toBeNull();
	});

	test('a time a little ahead (within the skew) does not hide a purchase made just after', async () => {
		const key = account();
		const trigger = pollTrigger({}, { apiKey: key });
		await trigger.activate();
		const soon = sim().addPartnerLicences(key, 1, { purchasedAt: nowSeconds() + 120 });
		expect(keysOf((await trigger.tick()).items)).toEqual(soon);
		const now = sim().addPartnerLicences(key, 1);
		expect(keysOf((await trigger.tick()).items)).toEqual(now);
	});

	test('a watermark saved in the future by an older version is pulled back: new licences come again', async () => {
		const key = account();
		const known = sim()
			.partnerLicences(key)
			.map((licence) => licence.video_key);
		const trigger = pollTrigger(
			{},
			{
				apiKey: key,
				staticData: {
					'node:GridBank Trigger': {
						version: 1,
						baseUrl: sim().baseUrl,
						since: 1_795_000_000_000,
						keys: known,
					},
				},
			},
		);
		expect((await trigger.activate()).items).toBeNull();
		const bought = sim().addPartnerLicences(key, 2);
		expect(keysOf((await trigger.tick()).items)).toEqual(bought);
		expect((trigger.nodeState as State).since).toBeLessThanOrEqual(nowSeconds() - OVERLAP_SECONDS);
	});

	test('purchase times in milliseconds: every new licence once, a quiet poll reads one page', async () => {
		const key = account(400);
		sim().faults.purchaseTimesInMs(true);
		const trigger = pollTrigger({}, { apiKey: key });
		await trigger.activate();
		for (let round = 0; round < 3; round++) {
			const bought = sim().addPartnerLicences(key, 2);
			expect(keysOf((await trigger.tick()).items)).toEqual(bought);
		}
		sim().clearLog();
		expect((await trigger.tick()).items).toBeNull();
		expect(listCalls(sim(), key)).toHaveLength(1);
		// GridBank fixes its times: the trigger was not lifted into the future meanwhile.
		sim().faults.purchaseTimesInMs(false);
		const after = sim().addPartnerLicences(key, 1);
		expect(keysOf((await trigger.tick()).items)).toEqual(after);
	});
});

test('licences without a date: no full re-read on quiet polls, the state stays bounded', async () => {
	const key = account(1500);
	sim().faults.nullableFieldsNull(true);
	const trigger = pollTrigger({}, { apiKey: key });
	await trigger.activate();
	expect((trigger.nodeState as State).keys.length).toBeLessThanOrEqual(KEEP_KEYS);
	sim().clearLog();
	expect((await trigger.tick()).items).toBeNull();
	expect(listCalls(sim(), key)).toHaveLength(1);
	const bought = sim().addPartnerLicences(key, 3);
	expect(keysOf((await trigger.tick()).items).sort()).toEqual([...bought].sort());
	expect((trigger.nodeState as State).keys.length).toBeLessThanOrEqual(KEEP_KEYS);
});

describe('one video that cannot be delivered', () => {
	test('storage has no master: it comes once with downloadError and never blocks newer videos', async () => {
		const key = account();
		const trigger = pollTrigger({ download: true }, { apiKey: key });
		await trigger.activate();
		const [broken] = sim().addPartnerLicences(key, 1, { purchasedAt: settled() });
		sim().faults.missingMaster(broken);
		const first = await trigger.tick();
		expect(first.error).toBeUndefined();
		expect(keysOf(first.items)).toEqual([broken]);
		expect(first.items?.[0].json.downloadError).toBe(
			"GridBank's storage has no file for this video (HTTP 404)",
		);
		expect(first.items?.[0].binary).toBeUndefined();

		const newer = sim().addPartnerLicences(key, 1);
		const second = await trigger.tick();
		expect(keysOf(second.items)).toEqual(newer);
		expect(await storedBytes(second.items?.[0].binary?.data)).toBe(
			sim().getVideoFile(newer[0]).size,
		);
		expect((await trigger.tick()).items).toBeNull();
	});
});

test('account-level failures fail the poll and lose nothing: after recovery every video comes exactly once', async () => {
	const key = account();
	const trigger = pollTrigger({ download: true, options: { maxRetries: 0 } }, { apiKey: key });
	await trigger.activate();
	const emitted: string[] = [];
	const collect = (poll: { items: INodeExecutionData[] | null }) =>
		emitted.push(...keysOf(poll.items).map(String));

	const bought = sim().addPartnerLicences(key, 2, { purchasedAt: settled() });
	sim().faults.failNext({ status: 429, count: 1, retryAfter: '0', path: '/content' });
	const limited = await trigger.tick();
	expect(limited.error?.message).toMatch(/^Rate limit exceeded/);
	collect(limited);

	bought.push(...sim().addPartnerLicences(key, 1, { purchasedAt: settled() + 1 }));
	sim().faults.resetConnections({ count: 1, path: '/content' });
	const down = await trigger.tick();
	expect(down.error).toBeDefined();
	expect(down.items).toBeNull();
	collect(down);

	bought.push(...sim().addPartnerLicences(key, 1, { purchasedAt: settled() + 2 }));
	// A storage outage (every video's file fails; one failing while others download is not one: one-video.test.ts).
	sim().faults.failNext({ status: 503, count: 1000, target: 'storage' });
	const storage = await trigger.tick();
	expect(storage.error?.message).toMatch(/storage could not serve the file \(HTTP 503\)/);
	collect(storage);
	sim().faults.clear();

	const [broken] = sim().addPartnerLicences(key, 1, { purchasedAt: settled() + 3 });
	bought.push(broken);
	sim().faults.missingMaster(broken);
	const recovered = await trigger.tick();
	expect(recovered.error).toBeUndefined();
	collect(recovered);
	collect(await trigger.tick());

	expect(emitted.sort()).toEqual([...bought].sort());
	expect(
		recovered.items?.find((item) => item.json.video_key === broken)?.json.downloadError,
	).toMatch(/has no file/);
});
