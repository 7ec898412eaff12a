// A parallel download starts as one stream and opens its other connections only when n8n's
// store waits on it (connection-budget.ts; segment-window.ts's extend): through n8n's real
// engine over real HTTP from the simulator. Where one stream is to be kept whatever the machine's
// load, the budget is held at one (setBudgetStart('one')); the opening is shown over a slow link,
// where one connection keeps the store waiting however busy the machine is.
import { DEMO_PARTNER_KEY, fileSha256, type Simulator } from '../../../../simulator';
import type { NodeRun } from '../../../harness/run-node';
import { partnerDownloads, sha256Of } from './partner-download';
import { storageCalls, useSimulator } from '../../../harness/simulator';
import { setBudgetStart } from '../../../../nodes/shared/download/connection-budget';
import { planSegments } from '../../../../nodes/shared/download/segment-plan';
import { MiB } from '../../../../nodes/shared/transport/values';

const sim = useSimulator();
const download = partnerDownloads();
const SIZE = 40 * MiB + 7;
const licensed = (s: Simulator, n: number) => s.partnerLicences(DEMO_PARTNER_KEY)[n].video_key;
const ranges = () => storageCalls(sim()).map((e) => e.headers.range);
const transfer = (run: NodeRun) =>
	run.items[0].json.transfer as { connections: number; resumes: number; handedOver: number };

afterEach(() => setBudgetStart());

test('while one stream is enough, the first response runs on through every segment: one request, byte-exact', async () => {
	setBudgetStart('one');
	const key = licensed(sim(), 0);
	sim().setVideoFile(key, { size: SIZE });
	const run = await download(key, 8);
	expect(run.error).toBeUndefined();
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, SIZE), bytes: SIZE });
	// Five segments of 8 MiB in the plan, one response for all of them.
	expect(planSegments(SIZE, 8)!.count).toBeGreaterThan(1);
	expect(ranges()).toEqual(['bytes=0-']);
	expect(transfer(run)).toMatchObject({ connections: 1, resumes: 0, handedOver: 0 });
});

test('a break while one stream runs on resumes from the first byte it did not read, to the end of the file', async () => {
	setBudgetStart('one');
	const key = licensed(sim(), 1);
	sim().setVideoFile(key, { size: SIZE });
	// The first response ends after 20,000,003 bytes, in the plan's third segment.
	sim().faults.cutDownloadAfter(20_000_003, 1);
	const run = await download(key, 8);
	expect(run.error).toBeUndefined();
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, SIZE), bytes: SIZE });
	const [first, again, ...more] = ranges();
	expect(first).toBe('bytes=0-');
	expect(more).toEqual([]);
	// From the first byte it did not read: the bytes sent last may have waited in the socket of a
	// response paused for n8n's store, and a broken response's unread bytes are gone.
	const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(again ?? '') ?? [];
	expect(Number(from)).toBeGreaterThan(16 * MiB);
	expect(Number(from)).toBeLessThanOrEqual(20_000_003);
	expect(Number(to)).toBe(SIZE - 1);
	expect(transfer(run)).toMatchObject({ connections: 1, resumes: 1 });
});

test('over a link one connection cannot fill, every connection opens: the plan’s segments, byte-exact', async () => {
	const key = licensed(sim(), 2);
	sim().setVideoFile(key, { size: SIZE });
	// 10 MB/s per connection: n8n's store takes bytes far faster, on any machine, and waits.
	sim().faults.wanLink({ connectionBytesPerSecond: 10e6, rttMs: 5 });
	const run = await download(key, 4);
	expect(run.error).toBeUndefined();
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, SIZE), bytes: SIZE });
	expect(transfer(run).connections).toBe(4);
	// The first response stopped at a segment's end; the others are segments (or their tails).
	const plan = planSegments(SIZE, 4)!;
	const starts = Array.from({ length: plan.count }, (_, i) => plan.segmentAt(i).start);
	const asked = ranges().slice(1);
	expect(asked.length).toBeGreaterThanOrEqual(2);
	for (const range of asked) {
		const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(range ?? '') ?? [];
		expect(Number(to)).toBeLessThan(SIZE);
		expect(Number(from)).toBeGreaterThan(0);
	}
	// The segment after wherever the one stream stopped was asked as a whole segment.
	expect(asked.some((r) => starts.includes(Number(/^bytes=(\d+)-/.exec(r ?? '')?.[1])))).toBe(true);
});

test('one stream that goes silent opens the other connections, which take its part over', async () => {
	const key = licensed(sim(), 3);
	sim().setVideoFile(key, { size: SIZE });
	// The first response sends 1 MB, then nothing for two minutes.
	sim().faults.stallAfter(1_000_000, 120_000, 1);
	const run = await download(key, 4);
	expect(run.error).toBeUndefined();
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, SIZE), bytes: SIZE });
	expect(transfer(run).connections).toBe(4);
	expect(transfer(run).handedOver).toBeGreaterThanOrEqual(1);
});

test('bytes past the size storage stated fail the download while one stream runs on: nothing passed on', async () => {
	setBudgetStart('one');
	const key = licensed(sim(), 4);
	sim().setVideoFile(key, { size: SIZE });
	// The first response (bytes 0-) sends 70,000 bytes more than its Content-Range's size.
	sim().faults.sendExtraBytes(70_000, 1);
	const run = await download(key, 8);
	expect(run.items).toEqual([]);
	expect(run.error?.description).toMatch(/more bytes than the file has/);
	expect(ranges()).toEqual(['bytes=0-']);
});
