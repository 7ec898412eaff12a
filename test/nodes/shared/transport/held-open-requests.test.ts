// No request held open for ever, through the real engine: an API answer dripped byte by byte
// and a storage body dripping below the minimum rate fail clearly; a slow but healthy API
// answer and a 200 KiB/s link do not. The limits are scaled down here (LIMITS is the one the
// node uses); deadlines.test.ts beside this file checks the real defaults' logic.
import { DEMO_PARTNER_KEY, fileSha256 } from '../../../../simulator';
import { runEnterprise, runPartner } from '../../../harness/run-gridbank';
import { binaryStream, cleanUpBinaries } from '../../../harness/run-node';
import { useSimulator } from '../../../harness/simulator';
import { PROMPTLY_MS } from '../../../harness/time-bounds';
import { LIMITS } from '../../../../nodes/shared/transport/deadlines';
import { createHash } from 'node:crypto';

const sim = useSimulator();
const keep = cleanUpBinaries();
const defaults = { ...LIMITS };
afterEach(() => Object.assign(LIMITS, defaults));

const licensed = (n: number) => sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;

describe('API: an overall deadline per attempt', () => {
	test('an answer dripped a byte every 50 ms is abandoned at the deadline, with a clear message', async () => {
		LIMITS.apiDeadlineMs = 2000;
		sim().faults.dripApi(50);
		const run = await runEnterprise({
			resource: 'usage',
			operation: 'get',
			options: { maxRetries: 0 },
		});
		expect(run.items).toEqual([]);
		// The message is the deadline's own: it, not the end of the drip, ended the attempt.
		expect(run.error?.message).toBe('GridBank did not answer within 2 seconds');
	});

	test('a slow but steady answer inside the deadline is read', async () => {
		// 2 ms a byte is well under a second for this answer on a quiet machine, but each byte waits
		// on a timer, and a loaded machine fires them late (past 5 s seen at load 20): 30 s of deadline.
		LIMITS.apiDeadlineMs = 30_000;
		sim().faults.dripApi(2);
		const run = await runEnterprise({
			resource: 'usage',
			operation: 'get',
			options: { maxRetries: 0 },
		});
		expect(run.error).toBeUndefined();
		expect(run.items[0].json.customer_id).toBeDefined();
	});
});

test('stopping the execution during a dripping API answer cancels the run: no deadline error', async () => {
	// A deadline past the bound, so only the cancel can end the run within it.
	LIMITS.apiDeadlineMs = 60_000;
	sim().faults.dripApi(50);
	let cancel: () => void = () => {};
	const started = runEnterprise(
		{ resource: 'usage', operation: 'get' },
		{ onStart: (execution) => (cancel = execution.cancel) },
	);
	for (let i = 0; i < 100 && !sim().log.some((e) => e.target === 'api'); i++)
		await new Promise((r) => setTimeout(r, 20));
	await new Promise((r) => setTimeout(r, 300));
	const cancelledAt = Date.now();
	cancel();
	const run = await started;
	expect(Date.now() - cancelledAt).toBeLessThan(PROMPTLY_MS);
	expect(run.run.status).toBe('canceled');
	expect(run.error?.message ?? '').not.toMatch(/did not answer/);
	expect(sim().log.filter((e) => e.target === 'api')).toHaveLength(1);
});

describe('storage: a minimum average rate', () => {
	test('a body dripping at 2 KiB/s is ended, resumed, then fails saying it was too slow', async () => {
		LIMITS.storageRateWindowMs = 1000;
		const key = licensed(0);
		sim().setVideoFile(key, { size: 200_000 });
		sim().faults.slowDownload(2048);
		const run = await keep(
			await runPartner({
				operation: 'getDownloadUrl',
				videoKey: key,
				download: true,
				options: { maxRetries: 1 },
			}),
		);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toBe('The download was cut off before the whole file arrived');
		expect(run.error?.description).toMatch(/below the minimum of 16 KiB\/s/);
		const ranges = sim()
			.log.filter((e) => e.target === 'storage')
			.map((e) => e.headers.range);
		expect(ranges).toHaveLength(2);
		expect(ranges[1]).toMatch(/^bytes=[1-9]\d*-$/);
	});

	test('a healthy 200 KiB/s link is not cut', async () => {
		LIMITS.storageRateWindowMs = 1000;
		const key = licensed(1);
		const size = 500_000;
		sim().setVideoFile(key, { size });
		sim().faults.slowDownload(200 * 1024);
		const run = await keep(
			await runPartner({
				operation: 'getDownloadUrl',
				videoKey: key,
				download: true,
				options: { maxRetries: 0 },
			}),
		);
		expect(run.error).toBeUndefined();
		const hash = createHash('sha256');
		for await (const chunk of await binaryStream(run.items[0], 'data'))
			hash.update(chunk as Buffer);
		expect(hash.digest('hex')).toBe(fileSha256(key, size));
		expect(sim().log.filter((e) => e.target === 'storage')).toHaveLength(1);
	});
});
