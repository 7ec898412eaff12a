// Uneven connections through n8n's real engine: a slow or stalled connection's unfinished part is
// handed to a free connection (hand-over.ts), the file stays byte-exact, few bytes are fetched
// twice (counted from the simulator's log of bytes sent), and the one-object-version guard holds
// for the handed-over request too.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DEMO_PARTNER_KEY, fileSha256, type Simulator } from '../../../../simulator';
import { runPartner } from '../../../harness/run-gridbank';
import { cleanUpBinaries, storedFiles, type NodeRun } from '../../../harness/run-node';
import { storeKeepsPartialFiles } from '../../../harness/engine';
import { useSimulator } from '../../../harness/simulator';
import { planSegments } from '../../../../nodes/shared/download/segment-plan';
import { MiB } from '../../../../nodes/shared/transport/values';
import { openAllConnections } from '../../../harness/open-all-connections';
import { sha256Of } from './partner-download';

openAllConnections();

const sim = useSimulator();
const keep = cleanUpBinaries();

const licensed = (s: Simulator, n: number) => s.partnerLicences(DEMO_PARTNER_KEY)[n].video_key;
const storage = (s: Simulator) => s.log.filter((e) => e.target === 'storage');
const download = (videoKey: string, connections: number) =>
	runPartner({
		operation: 'getDownloadUrl',
		videoKey,
		download: true,
		options: { parallelConnections: connections },
	});
const transfer = (run: NodeRun) =>
	run.items[0].json.transfer as { handedOver: number; resumes: number; restarts: number };

/** Every connection's pace in these tests (the slow and random ones only run slower). */
const PACE = 20e6;

/**
 * What one hand-over may let go of: the bytes its cut response had under way, sent by storage
 * and not yet read. With the process keeping up, that is a loopback socket's buffers: measured up
 * to 870 KB each (4.35 MB over 5 hand-overs of a 64 MiB file) in `npm test` on a loaded
 * clean-clone CI run, 2026-11-28. While the process is held up (a busy machine: the simulator
 * runs in it too), the link goes on sending into those buffers at its pace: one cut let go of
 * 3.47 MB beside three `yes` loops, 2026-11-29, with the event loop held up to 340 ms. So each
 * hand-over may let go of UNDER_WAY plus PACE times the longest hold-up seen in the download. A
 * hand-over asking again what its part had already received (megabytes here) still breaks it on
 * a quiet machine.
 */
const UNDER_WAY = 1024 * 1024;
const mayLetGo = (handedOver: number, heldUpMs: number) =>
	handedOver * (UNDER_WAY + (PACE * heldUpMs) / 1000);

/** Runs a download, and the longest the event loop was held up meanwhile, in ms. */
async function timedDownload(videoKey: string, connections: number) {
	const delay = monitorEventLoopDelay({ resolution: 10 });
	delay.enable();
	try {
		return { run: keep(await download(videoKey, connections)), heldUpMs: delay.max / 1e6 };
	} finally {
		delay.disable();
	}
}

/** Bytes storage sent beyond the file's own: what was fetched twice. */
const fetchedTwice = (s: Simulator, size: number) =>
	storage(s).reduce((sum, e) => sum + (e.bytesSent ?? 0), 0) - size;

test('one connection of four at a tenth of the speed: its part is handed over, byte-exact, fetched twice only what hand-overs had under way', async () => {
	// Each hand-over lets go of what the cut response had under way. On a loaded CI lane the
	// connections slow down together, more parts are handed over, and 2.0-2.1 % of the file was
	// fetched twice at 64 and at 128 MiB, 6.5 % once (5 hand-overs): so the bound is 2 % plus
	// UNDER_WAY per hand-over, as in the random case below. A hand-over asking again what its
	// part had already received (up to a 16 MiB segment here) still breaks it.
	const size = 64 * MiB + 5;
	const key = licensed(sim(), 0);
	sim().setVideoFile(key, { size });
	sim().faults.wanLink({ connectionBytesPerSecond: PACE, rttMs: 5 });
	// The second connection (the first segment after the first request) crawls at 2 MB/s.
	sim().faults.unevenLink({ slow: { every: 1000, first: 2, factor: 0.1 } });
	const { run, heldUpMs } = await timedDownload(key, 4);
	expect(run.error).toBeUndefined();
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, size), bytes: size });
	const { handedOver, resumes } = transfer(run);
	expect(handedOver).toBeGreaterThanOrEqual(1);
	expect(fetchedTwice(sim(), size)).toBeLessThanOrEqual(
		0.02 * size + mayLetGo(handedOver, heldUpMs),
	);
	// Every request beyond the plan's is a hand-over or a resume.
	expect(storage(sim())).toHaveLength(planSegments(size, 4)!.count + handedOver + resumes);
});

test('a connection stalled mid-segment is handed over, not cut by the stall detection', async () => {
	// The stalled response is cut having sent 2 MiB, and no byte of those is asked again. The
	// others cut short (the first at its segment's end, a part split again once the other
	// connection is free) let go of what they had under way (mayLetGo); 128 MiB keeps that within
	// the bound, which 40 MiB broke under a loaded CI.
	const size = 128 * MiB + 3;
	const key = licensed(sim(), 1);
	sim().setVideoFile(key, { size });
	sim().faults.wanLink({ connectionBytesPerSecond: PACE, rttMs: 5 });
	// Two connections: 8 MiB, then segments of 16 MiB. The second connection sends 2 MiB of its
	// 16, then nothing for 10 minutes: only a hand-over finishes the file before that.
	sim().faults.unevenLink({ stall: { connection: 2, afterBytes: 2 * MiB, ms: 600_000 } });
	const { run, heldUpMs } = await timedDownload(key, 2);
	expect(run.error).toBeUndefined();
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, size), bytes: size });
	expect(transfer(run)).toMatchObject({ resumes: 0, restarts: 0 });
	const { handedOver } = transfer(run);
	expect(handedOver).toBeGreaterThanOrEqual(1);
	expect(fetchedTwice(sim(), size)).toBeLessThanOrEqual(
		0.02 * size + mayLetGo(handedOver, heldUpMs),
	);
	const stalled = planSegments(size, 2)!.segmentAt(1);
	const stalledEntry = storage(sim()).find(
		(e) => e.headers.range === `bytes=${stalled.start}-${stalled.end - 1}`,
	);
	expect(stalledEntry?.bytesSent).toBe(2 * MiB);
	// Every request begun inside the stalled segment begins past what the stall had sent: its
	// tail (the first) up to the segment's end, a split of that tail perhaps after it.
	const fromOf = (e: { headers: { range?: string } }) =>
		Number(/^bytes=(\d+)-/.exec(e.headers.range ?? '')?.[1]);
	const inside = storage(sim()).filter((e) => fromOf(e) > stalled.start && fromOf(e) < stalled.end);
	if (!inside.length) throw new Error('no request began inside the stalled segment');
	for (const e of inside) expect(fromOf(e)).toBeGreaterThanOrEqual(stalled.start + 2 * MiB);
	const tail = inside[0];
	const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(tail.headers.range ?? '')!.map(Number);
	expect(from).toBeLessThan(stalled.end);
	expect(to).toBe(stalled.end - 1);
	expect(tail.headers['if-range']).toBe(
		storage(sim())[0].headers['if-range'] ?? tail.headers['if-range'],
	);
});

test('the object replaced at the hand-over, then again: the item fails, nothing of two versions stored', async () => {
	const size = 40 * MiB + 3;
	const key = licensed(sim(), 2);
	sim().setVideoFile(key, { size });
	sim().faults.wanLink({ connectionBytesPerSecond: PACE, rttMs: 5 });
	sim().faults.unevenLink({ stall: { connection: 2, afterBytes: 2 * MiB, ms: 600_000 } });
	// Request 4 is the hand-over (above); the download starts over (request 5), and request 6,
	// a segment of that second attempt, meets another version again.
	sim().faults.replaceObject({ atRequests: [4, 6] });
	const run = keep(await download(key, 2));
	expect(run.error?.message).toMatch(
		/The file changed on GridBank's storage while it was downloading/,
	);
	const ranges = storage(sim()).map((e) => e.headers.range);
	expect(ranges[4]).toBe('bytes=0-');
	// n8n 1.x's store keeps a failed attempt's partial file (deleted with the execution).
	if (!storeKeepsPartialFiles) expect(storedFiles(run)).toEqual([]);
});

test('every connection at a speed drawn at random (seeded): byte-exact, fetched twice only what hand-overs had under way', async () => {
	// Each hand-over lets go of what the other response had under way (on loopback, its socket
	// buffers: 60-80 KiB each on average, 15 hand-overs and 0.9-1.2 MB in all here with CI's
	// tests beside it, 3.4 MB once on a loaded CI lane, where the 2 % bound of the benchmark,
	// 0.14 % at 1 GiB, broke). So the bound is 2 % of the file plus UNDER_WAY per hand-over: a
	// hand-over that asked again what its part had already received (up to 8 MiB a segment
	// here) would pass it only for parts that had received under a MiB.
	const size = 128 * MiB + 11;
	const key = licensed(sim(), 3);
	sim().setVideoFile(key, { size });
	sim().faults.wanLink({ connectionBytesPerSecond: PACE, rttMs: 5 });
	sim().faults.unevenLink({ random: { seed: 36, min: 0.05, max: 1 } });
	const { run, heldUpMs } = await timedDownload(key, 8);
	expect(run.error).toBeUndefined();
	expect(await sha256Of(run)).toEqual({ sha256: fileSha256(key, size), bytes: size });
	const { handedOver, resumes } = transfer(run);
	expect(handedOver).toBeGreaterThanOrEqual(1);
	expect(fetchedTwice(sim(), size)).toBeLessThanOrEqual(
		0.02 * size + mayLetGo(handedOver, heldUpMs),
	);
	expect(storage(sim())).toHaveLength(planSegments(size, 8)!.count + handedOver + resumes);
});
