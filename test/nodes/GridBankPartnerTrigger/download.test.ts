// Download File: the trigger hands each new video's master file to the next node as binary data,
// byte-exact, and spreads a large backlog over several polls instead of overrunning n8n's poll budget.
import { createHash } from 'node:crypto';
import type { INodeExecutionData } from 'n8n-workflow';

import { fileSha256 } from '../../../simulator';
import { planSegments } from '../../../nodes/shared/download/segment-plan';
import { storedBytes } from '../../harness/engine';
import { binaryStream } from '../../harness/run-node';
import { useSimulator } from '../../harness/simulator';
import { pollTrigger } from '../../harness/run-gridbank';
import { keysOf, listCalls, nowSeconds, type State } from './helpers';
import { openAllConnections } from '../../harness/open-all-connections';

// Its Parallel Connections test checks the plan's segments: every connection from the start.
openAllConnections();

const sim = useSimulator();

const account = (licences = 10) => sim().createPartnerAccount({ licences }).key;
const settled = () => nowSeconds() - 3600;

async function stored(item: INodeExecutionData, property = 'data') {
	const hash = createHash('sha256');
	let bytes = 0;
	for await (const chunk of await binaryStream(item, property)) {
		hash.update(chunk as Buffer);
		bytes += (chunk as Buffer).length;
	}
	return { sha256: hash.digest('hex'), bytes };
}

test('each new video arrives with its master file in the binary field, complete and named', async () => {
	const key = account();
	const trigger = pollTrigger({ download: true, binaryPropertyName: 'master' }, { apiKey: key });
	await trigger.activate();
	const purchasedAt = settled();
	const bought = sim().addPartnerLicences(key, 2, { purchasedAt });
	sim().setVideoFile(bought[0], {
		size: 3 * 1024 * 1024 + 5,
		fileName: 'harbour at dawn.mov',
		contentType: 'video/quicktime',
	});
	sim().setVideoFile(bought[1], {
		size: 1_500_001,
		fileName: 'city-lights.mp4',
		contentType: 'video/mp4',
	});
	sim().clearLog();

	const poll = await trigger.tick();
	expect(poll.error).toBeUndefined();
	expect(keysOf(poll.items).sort()).toEqual([...bought].sort());
	// With Download File they come oldest first.
	const [second, first] = poll.items as INodeExecutionData[];
	expect(first.json).toEqual(
		expect.objectContaining({
			video_key: bought[0],
			purchased_at: purchasedAt,
			fileName: 'harbour at dawn.mov',
			mimeType: 'video/quicktime',
			fileSize: 3 * 1024 * 1024 + 5,
		}),
	);
	expect(first.json.url).toBeUndefined();
	expect(first.binary?.master).toMatchObject({
		fileName: 'harbour at dawn.mov',
		mimeType: 'video/quicktime',
	});
	expect(await storedBytes(first.binary?.master)).toBe(3 * 1024 * 1024 + 5);
	expect(first.binary?.master.id).toMatch(/^filesystem/);
	expect(await stored(first, 'master')).toEqual({
		sha256: fileSha256(bought[0], 3 * 1024 * 1024 + 5),
		bytes: 3 * 1024 * 1024 + 5,
	});
	expect(second.json).toMatchObject({
		fileName: 'city-lights.mp4',
		mimeType: 'video/mp4',
		fileSize: 1_500_001,
	});
	expect(await stored(second, 'master')).toEqual({
		sha256: fileSha256(bought[1], 1_500_001),
		bytes: 1_500_001,
	});

	// One list request, one URL per video, one storage GET per video, and no key at storage.
	expect(listCalls(sim(), key)).toHaveLength(1);
	expect(
		sim().log.filter((entry) => entry.target === 'api' && entry.path.endsWith('/download')),
	).toHaveLength(2);
	const storage = sim().log.filter((entry) => entry.target === 'storage');
	expect(storage).toHaveLength(2);
	expect(storage.every((entry) => entry.headers.authorization === undefined)).toBe(true);
});

test('a backlog larger than one poll budget is spread over several polls: oldest first, each once', async () => {
	const key = account();
	// A budget so small that each poll downloads one file (a poll always makes progress).
	const trigger = pollTrigger({ download: true }, { apiKey: key, pollBudgetMs: 1 });
	await trigger.activate();
	// Listed newest first; with Download File they come oldest first.
	const backlog = sim().addPartnerLicences(key, 3, { purchasedAt: settled() }).reverse();

	const first = await trigger.tick();
	expect(keysOf(first.items)).toEqual([backlog[0]]);
	expect((trigger.nodeState as State).backlog?.map((video) => video.video_key)).toEqual(
		backlog.slice(1),
	);

	// A licence bought meanwhile is newer than the backlog, so it comes after it.
	const meanwhile = sim().addPartnerLicences(key, 1, { purchasedAt: settled() + 60 });
	const emitted = [...keysOf(first.items)];
	for (let poll = 0; poll < 3; poll++) {
		const result = await trigger.tick();
		expect(result.items).toHaveLength(1);
		expect(await storedBytes(result.items?.[0].binary?.data)).toBe(
			sim().getVideoFile(String(result.items?.[0].json.video_key)).size,
		);
		emitted.push(...keysOf(result.items));
	}
	expect(emitted).toEqual([...backlog, ...meanwhile]);
	expect((await trigger.tick()).items).toBeNull();
	expect(trigger.nodeState?.backlog).toBeUndefined();
});

test('the backlog survives a restart', async () => {
	const key = account();
	const trigger = pollTrigger({ download: true }, { apiKey: key, pollBudgetMs: 1 });
	await trigger.activate();
	const backlog = sim().addPartnerLicences(key, 2, { purchasedAt: settled() }).reverse();
	expect(keysOf((await trigger.tick()).items)).toEqual([backlog[0]]);
	expect(keysOf((await trigger.restart()).items)).toEqual([backlog[1]]);
	expect((await trigger.tick()).items).toBeNull();
});

test('storage refusing a fresh URL too: the video comes once with downloadError, later polls go on', async () => {
	const key = account();
	const trigger = pollTrigger({ download: true }, { apiKey: key });
	await trigger.activate();
	const bought = sim().addPartnerLicences(key, 1, { purchasedAt: settled() });
	sim().faults.storageRefuse(403, 2);

	const emitted = await trigger.tick();
	expect(emitted.error).toBeUndefined();
	expect(keysOf(emitted.items)).toEqual(bought);
	expect(emitted.items?.[0].json.downloadError).toMatch(
		/refused the download link twice \(HTTP 403\)/,
	);
	expect(emitted.items?.[0].binary).toBeUndefined();
	expect((await trigger.tick()).items).toBeNull();
});

test('a backlog video whose licence was refunded meanwhile comes once without a file; later polls go on', async () => {
	const key = account();
	const trigger = pollTrigger({ download: true }, { apiKey: key, pollBudgetMs: 1 });
	await trigger.activate();
	const backlog = sim().addPartnerLicences(key, 3, { purchasedAt: settled() }).reverse();
	expect(keysOf((await trigger.tick()).items)).toEqual([backlog[0]]);
	// Refunded while it waited in the backlog: GridBank now answers 403 (not licensed) for it.
	sim().removePartnerLicences(key, [backlog[1]]);

	const next = await trigger.tick();
	expect(next.error).toBeUndefined();
	expect(keysOf(next.items)).toEqual([backlog[1]]);
	const [gone] = next.items as INodeExecutionData[];
	expect(gone.binary).toBeUndefined();
	expect(gone.json.downloadError).toMatch(/not licensed/i);
	expect(gone.json.fileName).toBeUndefined();

	const after = await trigger.tick();
	expect(keysOf(after.items)).toEqual([backlog[2]]);
	const [fetched] = after.items as INodeExecutionData[];
	expect(fetched.json.downloadError).toBeUndefined();
	expect(await stored(fetched)).toEqual({
		sha256: fileSha256(backlog[2], sim().getVideoFile(backlog[2]).size),
		bytes: sim().getVideoFile(backlog[2]).size,
	});
	expect((await trigger.tick()).items).toBeNull();
	expect(trigger.nodeState?.backlog).toBeUndefined();
});

test('Partner access revoked between listing and download fails the poll and keeps the backlog', async () => {
	const key = account();
	const trigger = pollTrigger({ download: true }, { apiKey: key, pollBudgetMs: 1 });
	await trigger.activate();
	const backlog = sim().addPartnerLicences(key, 2, { purchasedAt: settled() }).reverse();
	expect(keysOf((await trigger.tick()).items)).toEqual([backlog[0]]);
	const state = trigger.nodeState;
	// The list request still passes; the download URL request is refused.
	sim().faults.withdrawPartnerAccess(key, { afterRequests: 1 });

	const failed = await trigger.tick();
	expect(failed.items).toBeNull();
	expect(failed.error?.message).toMatch(/access/i);
	expect(trigger.nodeState).toEqual(state);
});

test('Fetch Test Event with Download File returns the newest licence with its file, state untouched', async () => {
	const key = account(4);
	const trigger = pollTrigger({ download: true }, { apiKey: key });
	await trigger.activate();
	const state = trigger.nodeState;
	const manual = await trigger.manual();
	expect(manual.error).toBeUndefined();
	const newest = sim().partnerLicences(key)[0].video_key;
	expect(keysOf(manual.items)).toEqual([newest]);
	const size = sim().getVideoFile(newest).size;
	expect(manual.items?.[0].json.fileSize).toBe(size);
	expect(await stored((manual.items as INodeExecutionData[])[0])).toEqual({
		sha256: fileSha256(newest, size),
		bytes: size,
	});
	expect(manual.staticDataChanged).toBe(false);
	expect(trigger.nodeState).toEqual(state);
});

test('Parallel Connections: a big master arrives over ranged segments, byte-exact', async () => {
	const key = account();
	const trigger = pollTrigger(
		{ download: true, options: { parallelConnections: 3 } },
		{ apiKey: key },
	);
	await trigger.activate();
	const [bought] = sim().addPartnerLicences(key, 1, { purchasedAt: settled() });
	const size = 40 * 1024 * 1024 + 3;
	sim().setVideoFile(bought, { size });
	sim().clearLog();

	const poll = await trigger.tick();
	expect(poll.error).toBeUndefined();
	const [item] = poll.items as INodeExecutionData[];
	expect(item.json).toMatchObject({ video_key: bought, fileSize: size });
	expect(await stored(item)).toEqual({ sha256: fileSha256(bought, size), bytes: size });
	// The first request from byte 0 (segment 0), then a ranged request per further segment.
	const ranges = sim()
		.log.filter((entry) => entry.target === 'storage')
		.map((entry) => entry.headers.range);
	const plan = planSegments(size, 3)!;
	expect(plan.count).toBeGreaterThan(2);
	const planned = Array.from({ length: plan.count - 1 }, (_, i) => plan.segmentAt(i + 1));
	expect(ranges[0]).toBe('bytes=0-');
	const later = ranges.slice(1) as string[];
	for (const s of planned) expect(later).toContain(`bytes=${s.start}-${s.end - 1}`);
	// On loopback a busy machine can slow one connection enough for a hand-over (hand-over.ts),
	// and the last segments may be split at any pace: each one more request, for bytes inside a
	// planned segment (the tail of a part, itself maybe the tail of an earlier hand-over).
	const extra = later.filter((r) => !planned.some((s) => r === `bytes=${s.start}-${s.end - 1}`));
	expect(extra).toHaveLength((item.json.transfer as { handedOver: number }).handedOver);
	for (const range of extra) {
		const [from, to] = range.slice('bytes='.length).split('-').map(Number);
		expect(
			[{ start: 0, end: plan.segmentAt(0).end }, ...planned].some(
				(s) => from > s.start && from <= to && to <= s.end - 1,
			),
		).toBe(true);
	}
});

test("a 403 with GridBank's envelope and another code on a video's download: that video comes once with downloadError, the poll goes on", async () => {
	const key = account();
	const trigger = pollTrigger({ download: true }, { apiKey: key });
	await trigger.activate();
	const bought = sim().addPartnerLicences(key, 2, { purchasedAt: settled() });
	sim().faults.partnerForbidden(
		`/videos/${encodeURIComponent(bought[1])}/download`,
		'licence_refunded',
	);
	const poll = await trigger.tick();
	expect(poll.error).toBeUndefined();
	expect(keysOf(poll.items).sort()).toEqual([...bought].sort());
	const refused = (poll.items as INodeExecutionData[]).find((i) => i.json.video_key === bought[1]);
	expect(refused?.json.downloadError).toBe(`Video "${bought[1]}" is not licensed by this account`);
	expect(refused?.binary).toBeUndefined();
	expect((await trigger.tick()).items).toBeNull();
});
