// Parallel Connections through n8n's real engine: the file fetched as ranged segments over
// several connections arrives byte-exact in filesystem binary data, and every fault a segment
// can meet ends in the same SHA-256 or a clear failure, never a silently wrong file.
import {
	DEMO_PARTNER_KEY,
	fileSha256,
	startSimulator,
	type LoggedRequest,
	type Simulator,
} from '../../../../simulator';
import { runEnterprise, runPartner, type GridBankRunOptions } from '../../../harness/run-gridbank';
import {
	cleanUpBinaries,
	deleteBinaries,
	storedFiles,
	type NodeRun,
} from '../../../harness/run-node';
import { storeKeepsPartialFiles } from '../../../harness/engine';
import { useSimulator } from '../../../harness/simulator';
import { PROMPTLY_MS } from '../../../harness/time-bounds';
import { planSegments, type SegmentPlan } from '../../../../nodes/shared/download/segment-plan';
import { MiB } from '../../../../nodes/shared/transport/values';
import { openAllConnections } from '../../../harness/open-all-connections';
import { sha256Of } from './partner-download';

openAllConnections();

const sim = useSimulator();
const keep = cleanUpBinaries();
const SIZE = 40 * MiB + 7;

const licensed = (s: Simulator, n: number) => s.partnerLicences(DEMO_PARTNER_KEY)[n].video_key;
const storage = (s: Simulator) => s.log.filter((e) => e.target === 'storage');
const downloadCalls = (s: Simulator) =>
	s.log.filter((e) => e.target === 'api' && e.path.endsWith('/download'));

/** Get Download URL with Download File on and these options. */
const download = (
	videoKey: string,
	options: Record<string, unknown>,
	run: GridBankRunOptions = {},
) => runPartner({ operation: 'getDownloadUrl', videoKey, download: true, options }, run);

const rangeOf = (e: LoggedRequest) => e.headers.range;
/** Parts handed to a free connection (hand-over.ts): on loopback a busy machine can slow one. */
const handedOver = (run: NodeRun) =>
	(run.items[0].json.transfer as { handedOver: number }).handedOver;
/** Every segment of a plan, in order (the plan computes them one at a time). */
const segmentsOf = (plan: SegmentPlan) =>
	Array.from({ length: plan.count }, (_, i) => plan.segmentAt(i));

test('4 connections: the segments the plan names, over parallel connections, byte-exact', async () => {
	const key = licensed(sim(), 0);
	sim().setVideoFile(key, { size: SIZE, fileName: 'parallel.mov' });
	// A slow link per connection, so that segments overlap in time for real: each 10 MiB segment
	// takes at least a second on it, however fast the machine.
	sim().faults.wanLink({ connectionBytesPerSecond: 10e6, rttMs: 5 });
	let inFlight = 0;
	let mostInFlight = 0;
	const run = keep(await download(key, { parallelConnections: 4 }));
	expect(run.error).toBeUndefined();
	expect(run.items[0].json).toMatchObject({ fileName: 'parallel.mov', fileSize: SIZE });
	expect(run.items[0].binary?.data.id).toMatch(/^filesystem/);
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, SIZE), bytes: SIZE });

	const plan = planSegments(SIZE, 4)!;
	const ranges = storage(sim()).map(rangeOf);
	// The first request asks from byte 0 on (it proves ranges and states the size); it serves segment 0.
	expect(ranges[0]).toBe('bytes=0-');
	const starts = new Set(segmentsOf(plan).map((s) => s.start));
	const from = (range: string | undefined) => Number(/^bytes=(\d+)-/.exec(range ?? '')?.[1]);
	expect(
		ranges
			.slice(1)
			.filter((r) => starts.has(from(r)))
			.sort(),
	).toEqual(
		segmentsOf(plan)
			.slice(1)
			.map((s) => `bytes=${s.start}-${s.end - 1}`)
			.sort(),
	);
	// The rest are tails handed to a free connection once every segment had started (hand-over.ts):
	// each from a byte inside a segment.
	expect(ranges.filter((r) => !starts.has(from(r)))).toHaveLength(handedOver(run));
	// More than one segment was requested before the previous ones were done: a segment takes at
	// least a second on its 10 MB/s link (a loaded machine only makes it longer), so requests less
	// than half a second apart overlap; one after another are a second or more apart.
	for (const e of storage(sim()))
		mostInFlight = Math.max(
			mostInFlight,
			storage(sim()).filter((o) => Math.abs(o.at - e.at) < 500).length,
		);
	inFlight = mostInFlight;
	expect(inFlight).toBeGreaterThan(1);
});

test('Parallel Connections 1: one request, as before', async () => {
	const key = licensed(sim(), 1);
	sim().setVideoFile(key, { size: SIZE });
	const run = keep(await download(key, { parallelConnections: 1 }));
	expect(run.error).toBeUndefined();
	expect(storage(sim()).map(rangeOf)).toEqual(['bytes=0-']);
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, SIZE), bytes: SIZE });
});

test('storage without ranges: one stream, byte-exact', async () => {
	const key = licensed(sim(), 2);
	sim().setVideoFile(key, { size: SIZE, rangeSupport: false });
	const run = keep(await download(key, { parallelConnections: 8 }));
	expect(run.error).toBeUndefined();
	expect(storage(sim())).toHaveLength(1);
	expect(storage(sim())[0].status).toBe(200);
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, SIZE), bytes: SIZE });
});

test('a segment cut mid-way resumes from the byte it broke at', async () => {
	const key = licensed(sim(), 3);
	sim().setVideoFile(key, { size: SIZE });
	sim().faults.faultRangedRequests({ fault: 'cut', afterBytes: 1_000_003 }, 1);
	const run = keep(await download(key, { parallelConnections: 4 }));
	expect(run.error).toBeUndefined();
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, SIZE), bytes: SIZE });
	const plan = planSegments(SIZE, 4)!;
	const cut = storage(sim()).find((e) => e.headers.range !== 'bytes=0-')!;
	const start = Number(/bytes=(\d+)-/.exec(cut.headers.range!)![1]);
	const segment = segmentsOf(plan).find((s) => s.start === start)!;
	const ranges = storage(sim()).map(rangeOf);
	const resumed = ranges.find((r) => r?.startsWith(`bytes=${start + 1_000_003}-`));
	const to = Number(/-(\d+)$/.exec(resumed ?? '')?.[1]);
	// To the segment's end; or, where a hand-over took the part's tail while its resume was asked
	// (a busy machine: no bytes came meanwhile), to the byte before that tail's request.
	if (to !== segment.end - 1) expect(ranges).toContain(`bytes=${to + 1}-${segment.end - 1}`);
	expect(to).toBeGreaterThan(start + 1_000_003);
	// Plus any hand-over of a part that ran slow on this busy machine (each one request).
	expect(storage(sim())).toHaveLength(plan.count + 1 + handedOver(run));
});

test('a segment answered with another range is asked again, never stitched in', async () => {
	const key = licensed(sim(), 4);
	sim().setVideoFile(key, { size: SIZE });
	sim().faults.faultRangedRequests({ fault: 'wrongContentRange' }, 2);
	const run = keep(await download(key, { parallelConnections: 4 }));
	expect(run.error).toBeUndefined();
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, SIZE), bytes: SIZE });
	// Two asked again, plus any hand-over of a part that ran slow on this busy machine.
	expect(storage(sim())).toHaveLength(planSegments(SIZE, 4)!.count + 2 + handedOver(run));
});

test('a segment that keeps coming back with the wrong range fails clearly, nothing stored', async () => {
	const key = licensed(sim(), 5);
	sim().setVideoFile(key, { size: SIZE });
	sim().faults.faultRangedRequests({ fault: 'wrongContentRange' }, 1000);
	const run = keep(await download(key, { parallelConnections: 4, maxRetries: 2 }));
	expect(run.items).toEqual([]);
	expect(run.error?.message).toBe('The download was cut off before the whole file arrived');
	expect(run.error?.description).toMatch(/storage answered bytes \d+-\d+ with bytes \d+-\d+\/\d+/);
	expect(run.error?.description).toContain('no partial file was passed on');
});

test('storage that honours Range for the first request only: the whole file again as one stream', async () => {
	const key = licensed(sim(), 6);
	sim().setVideoFile(key, { size: SIZE });
	sim().faults.faultRangedRequests({ fault: 'ignoreRange' }, 1000);
	const run = keep(await download(key, { parallelConnections: 4 }));
	expect(run.error).toBeUndefined();
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, SIZE), bytes: SIZE });
	// The restart is one request from byte 0 that is read to the end.
	expect(storage(sim()).filter((e) => e.headers.range === 'bytes=0-')).toHaveLength(2);
});

describe('a signed URL that expires while segments are in flight', () => {
	let shift = 0;
	let expiring: Simulator;
	beforeAll(async () => {
		expiring = await startSimulator({
			port: 0,
			now: () => Date.now() + shift,
			// The URL expires as soon as the first response is under way.
			onRequest: (r) => {
				if (r.target === 'storage' && r.status === 206) shift = 10 * 60_000;
			},
		});
	});
	afterAll(async () => await expiring.close());

	test('one fresh URL serves every segment, byte-exact', async () => {
		// More segments than connections: some start after the first response has ended.
		const size = 100 * MiB + 7;
		const key = licensed(expiring, 0);
		expiring.setVideoFile(key, { size });
		expiring.faults.wanLink({ connectionBytesPerSecond: 60e6, rttMs: 5 });
		const run = keep(await download(key, { parallelConnections: 4 }, { sim: expiring }));
		expect(run.error).toBeUndefined();
		expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, size), bytes: size });
		// Segments were refused with the first URL, and one reissue served them all.
		const statuses = storage(expiring).map((e) => e.status);
		expect(statuses.filter((s) => s === 403).length).toBeGreaterThanOrEqual(1);
		expect(statuses.filter((s) => s === 206)).toHaveLength(
			planSegments(size, 4)!.count + handedOver(run),
		);
		expect(downloadCalls(expiring)).toHaveLength(2);
		expect(run.items[0].json.url).not.toBe(storage(expiring)[0].path);
	});
});

test('cancel during a parallel transfer: every connection stops, nothing stored', async () => {
	const key = licensed(sim(), 7);
	sim().setVideoFile(key, { size: SIZE });
	// 40 MiB over 8 connections of 100 kB/s: about 50 s, far past the bound, if nothing stopped.
	sim().faults.wanLink({ connectionBytesPerSecond: 1e5, rttMs: 5 });
	let cancel = () => {};
	const started = download(
		key,
		{ parallelConnections: 8 },
		{ onStart: (execution) => (cancel = execution.cancel) },
	);
	for (let i = 0; i < 100 && storage(sim()).length < 4; i++)
		await new Promise((r) => setTimeout(r, 50));
	await new Promise((r) => setTimeout(r, 300));
	expect(storage(sim()).length).toBeGreaterThanOrEqual(4);
	const cancelledAt = Date.now();
	cancel();
	const run = await started;
	expect(Date.now() - cancelledAt).toBeLessThan(PROMPTLY_MS);
	expect(run.run.status).toBe('canceled');
	expect(run.items).toEqual([]);
	const requests = storage(sim()).length;
	await new Promise((r) => setTimeout(r, 300));
	// No segment was started after the cancel, and the store's temporary file is gone.
	expect(storage(sim())).toHaveLength(requests);
	// n8n 1.x's filesystem store leaves what arrived in the execution's own folder (never in an item; deleted with the execution).
	if (!storeKeepsPartialFiles) expect(storedFiles(run)).toEqual([]);
	await deleteBinaries(run);
});

test.each([0, 17, 2.5, 'many'])(
	'Parallel Connections %p: a clear error before any request',
	async (value) => {
		const key = licensed(sim(), 8);
		const run = keep(await download(key, { parallelConnections: value }));
		expect(run.error?.message).toBe('Parallel Connections must be a whole number from 1 to 16');
		expect(sim().log).toEqual([]);
	},
);

test('Enterprise Get Download: parallel segments, checked against file_size', async () => {
	const videoId = licensed(sim(), 9);
	sim().setVideoFile(videoId, { size: SIZE });
	const run = keep(
		await runEnterprise({
			resource: 'video',
			operation: 'getDownload',
			videoId,
			download: true,
			options: { parallelConnections: 3 },
		}),
	);
	expect(run.error).toBeUndefined();
	expect(run.items[0].json).toMatchObject({ file_size: SIZE, fileSize: SIZE });
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(videoId, SIZE), bytes: SIZE });
	expect(storage(sim()).length).toBe(planSegments(SIZE, 3)!.count + handedOver(run));
});
