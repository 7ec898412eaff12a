// Storage answering 429 or 503 with Retry-After is waited for and retried like the API: the
// wait it asks for (bounded by the API's cap, MAX_WAIT_MS), each wait counting as one retry.
import { DEMO_PARTNER_KEY } from '../../../../simulator';
import { runPartner, type GridBankRun } from '../../../harness/run-gridbank';
import { cleanUpBinaries, type NodeRun } from '../../../harness/run-node';
import { useSimulator } from '../../../harness/simulator';
import { ASKED_WAIT_CEILING_MS } from '../../../harness/time-bounds';
import { MAX_WAIT_MS } from '../../../../nodes/shared/transport/retry-policy';
import { setTransferWaitBudget } from '../../../../nodes/shared/download/transfer-waits';
import { openAllConnections } from '../../../harness/open-all-connections';

openAllConnections();

const sim = useSimulator();
const cleanUp = cleanUpBinaries();
const keep = <T extends NodeRun>(run: T): T => (cleanUp(run), run);
const SIZE = 3_000_000;

async function download(n: number, options: Record<string, unknown> = {}) {
	const key = sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;
	sim().setVideoFile(key, { size: SIZE });
	return keep(
		await runPartner({ operation: 'getDownloadUrl', videoKey: key, download: true, options }),
	);
}

/** ms between each storage request and the next. */
const gaps = (run: GridBankRun) => run.storage.slice(1).map((e, i) => e.at - run.storage[i].at);

test('429 with Retry-After: 2 → waited about 2 s, then the file arrives whole from the same URL', async () => {
	sim().faults.failNext({ status: 429, count: 1, target: 'storage', retryAfter: '2' });
	const run = await download(0);
	expect(run.error).toBeUndefined();
	expect(run.items[0].json.fileSize).toBe(SIZE);
	expect(run.storage.map((e) => e.status)).toEqual([429, 206]);
	expect(run.calls).toHaveLength(1);
	const [gap] = gaps(run);
	expect(gap).toBeGreaterThanOrEqual(1900);
	expect(gap).toBeLessThan(ASKED_WAIT_CEILING_MS);
});

test('503 with Retry-After: 2, twice, with Parallel Connections 4: each wait as asked, the file whole', async () => {
	sim().faults.failNext({ status: 503, count: 2, target: 'storage', retryAfter: '2' });
	const run = await download(1, { parallelConnections: 4 });
	expect(run.error).toBeUndefined();
	expect(run.items[0].json.fileSize).toBe(SIZE);
	expect(run.storage.slice(0, 3).map((e) => e.status)).toEqual([503, 503, 206]);
	for (const gap of gaps(run).slice(0, 2)) {
		expect(gap).toBeGreaterThanOrEqual(1900);
		expect(gap).toBeLessThan(ASKED_WAIT_CEILING_MS);
	}
});

test('a Retry-After above the cap fails at once with the wait storage asked for, nothing stored', async () => {
	const asked = MAX_WAIT_MS / 1000 + 480;
	sim().faults.failNext({ status: 503, count: 1, target: 'storage', retryAfter: String(asked) });
	const started = Date.now();
	const run = await download(2);
	expect(Date.now() - started).toBeLessThan(ASKED_WAIT_CEILING_MS);
	expect(run.items).toEqual([]);
	expect(run.error?.message).toBe(
		`GridBank's storage asked to wait ${asked} seconds before the next request (HTTP 503)`,
	);
	expect(run.error?.description).toContain(`at most ${MAX_WAIT_MS / 1000} seconds`);
	expect(run.storage).toHaveLength(1);
});

test("storage's waits count against Max Retries: 429 after the last retry fails with a clear message", async () => {
	sim().faults.failNext({ status: 429, count: 5, target: 'storage', retryAfter: '1' });
	const run = await download(3, { maxRetries: 1 });
	expect(run.items).toEqual([]);
	expect(run.storage.map((e) => e.status)).toEqual([429, 429]);
	expect(run.error?.message).toBe("GridBank's storage is limiting requests (HTTP 429)");
	expect(run.error?.description).toMatch(/after 1 retry/);
	expect(JSON.stringify(run.error)).not.toContain(DEMO_PARTNER_KEY.split('.')[1]);
});

describe('one wait budget per download, shared by all its segments (field hardening IV, point 5)', () => {
	afterEach(() => setTransferWaitBudget());

	test('every segment gets 503 with Retry-After: the waits of all segments together stay within the budget, then the item fails saying storage kept asking to wait', async () => {
		// A 5 s budget stands for the 300 s one; each wait storage asks for is 2 s.
		setTransferWaitBudget(5_000);
		sim().faults.busyParts('2', 40);
		const key = sim().partnerLicences(DEMO_PARTNER_KEY)[3].video_key;
		sim().setVideoFile(key, { size: 40 * 1024 * 1024 });
		const run = keep(
			await runPartner({
				operation: 'getDownloadUrl',
				videoKey: key,
				download: true,
				options: { parallelConnections: 4, maxRetries: 10 },
			}),
		);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toBe("GridBank's storage kept asking to wait (HTTP 503)");
		expect(run.error?.description).toMatch(
			/waited 4 seconds in total \(2 waits, all connections together\)/,
		);
		// The Retry-After waits granted, summed over every segment: within the budget. Each 503
		// answer was either waited for (2 s) or ended the download (the last one).
		const busy = run.storage.filter((e) => e.status === 503);
		expect(busy.length).toBeGreaterThanOrEqual(3);
		expect((busy.length - 1) * 2_000).toBeLessThanOrEqual(5_000 + 4 * 2_000);
	});

	test('a budget of its own per download: a waited 503 does not count against the next item', async () => {
		setTransferWaitBudget(3_000);
		sim().faults.failNext({ status: 503, count: 1, target: 'storage', retryAfter: '2' });
		expect((await download(4)).error).toBeUndefined();
		sim().faults.failNext({ status: 503, count: 1, target: 'storage', retryAfter: '2' });
		expect((await download(5)).error).toBeUndefined();
	});
});
