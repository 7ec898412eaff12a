'use strict';
/**
 * `npm run test:queue`: the package in n8n's queue mode — a main, two `n8n worker` processes,
 * Redis and Postgres (binary data in the database, n8n's default in queue mode), every instance
 * with the package npm-installed as the README says — against the GridBank simulator.
 * Scenarios run in order on one cluster.
 */
const fs = require('node:fs');
const path = require('node:path');
const rt = require('../../scripts/n8n/n8n-runtime');
const { startCluster } = require('../../scripts/queue/queue-cluster');
const { startJobServices, BUCKET } = require('../../scripts/services/job-services');
const { expectMastersInBucket, expectAnnounced } = require('../job-checks');
const q = require('../../scripts/queue/queue-helpers');

/** The queue-mode example, as shipped: the trigger without Download File, the download in the workflow. */
const QUEUE_EXAMPLE = 'partner-trigger-queue-backup.json';

/**
 * The pacing simulator: GridBank's 300 a minute, in real time. (n8n's processes pace on their own
 * one-minute clock too; a time-scaled server window would measure that mismatch, not the pacer.)
 */
const PACE_LIMIT = 300;
const PACE_WINDOW_MS = 60_000;

let sim;
let simulator;
let pacingSim;
let cluster;
/** The S3 server and Slack stand-in the queue-mode example stores to and posts to. */
let job;
let example;
/** Licences added in scenario (c): the queue-mode example backs them up too. */
let freshInC = [];
/** Licences the trigger emitted (video keys), across every execution: checked at the end for duplicates. */
let triggerKeys = [];

const contentPolls = () =>
	simulator.log.filter((l) => l.target === 'api' && l.path === '/partner/v1/content').length;

beforeAll(async () => {
	sim = await rt.loadSimulator();
	// No limit here (and so no X-RateLimit-* headers), as in the benchmark: the pacing simulator
	// alone counts the key's requests. Two servers each counting the same key against a limit of
	// their own is not something GridBank does (the count follows the account).
	simulator = await sim.startSimulator({
		port: await rt.freePort(),
		storagePort: 0,
		partnerRatePerMinute: 0,
	});
	pacingSim = await sim.startSimulator({
		port: await rt.freePort(),
		storagePort: 0,
		partnerRatePerMinute: PACE_LIMIT,
		rateWindowMs: PACE_WINDOW_MS,
		logLimit: 20_000,
	});
	const jobDir = path.join(rt.ROOT, '.cache', 'queue-job');
	fs.rmSync(jobDir, { recursive: true, force: true });
	job = await startJobServices({ dir: jobDir });
	example = rt.loadExample(QUEUE_EXAMPLE);
	example.nodes.find(
		(n) => n.type === 'n8n-nodes-gridbank.gridBankPartnerTrigger',
	).parameters.pollTimes = {
		item: [{ mode: 'everyMinute' }],
	};
	cluster = await startCluster({
		workers: 2,
		concurrency: 10,
		credentials: [...q.credentials(simulator.baseUrl, pacingSim.baseUrl, sim), ...job.credentials],
		workflows: [
			q.downloadWorkflow(),
			q.copyWorkflow(BUCKET),
			q.pacingWorkflow(200),
			q.triggerWorkflow(),
			example,
		],
		publish: [q.DOWNLOAD_WF, q.COPY_WF, q.PACING_WF, q.TRIGGER_WF, example.id],
		env: job.n8nEnv, // every process's Slack node reaches the stand-in
	});
}, 900_000);

afterAll(async () => {
	await cluster?.stop();
	await simulator?.close();
	await pacingSim?.close();
	await job?.close();
}, 120_000);

/** Downloads `keys` at once through the webhook; each execution's id, worker and stored files. */
async function downloadAll(keys) {
	const before = new Set((await q.executions(cluster, q.DOWNLOAD_WF)).map((e) => e.id));
	const answers = await Promise.all(
		keys.map((videoKey) => q.postWebhook(cluster, q.DOWNLOAD_PATH, { videoKey })),
	);
	const runs = await q.waitFor('the executions to be stored', async () => {
		const list = (await q.executions(cluster, q.DOWNLOAD_WF)).filter((e) => !before.has(e.id));
		return list.length === keys.length && list.every((e) => !['new', 'running'].includes(e.status))
			? list
			: undefined;
	});
	const workerOf = cluster.workerOf();
	const out = [];
	for (const e of runs) {
		const data = await q.executionData(cluster, e.id);
		const item = data?.resultData?.runData?.Download?.[0]?.data?.main?.[0]?.[0];
		out.push({
			...e,
			worker: workerOf[e.id],
			videoKey: item?.json?.video_key,
			error: data?.resultData?.error,
			files: await q.binaries(cluster, e.id),
		});
	}
	return { answers, runs: out };
}

/** A workflow's executions, once there is one and none is still running (a poll's, within 150 s). */
const settledExecutions = (workflowId, what) =>
	q.waitFor(
		what,
		async () => {
			const list = await q.executions(cluster, workflowId);
			return list.length && list.every((e) => !['new', 'running'].includes(e.status))
				? list
				: undefined;
		},
		{ timeoutMs: 150_000, everyMs: 2000 },
	);

/** Every successful run stored exactly the simulator's bytes for its video. */
function expectByteExact(runs) {
	for (const r of runs.filter((x) => x.status === 'success')) {
		const file = simulator.getVideoFile(r.videoKey);
		expect(r.files).toEqual([
			{ fileName: file.fileName, size: file.size, sha256: sim.fileSha256(r.videoKey, file.size) },
		]);
	}
}

test('(c, first part) the Partner Trigger, active on the main, starts executions on the workers for new licences', async () => {
	// n8n polled once when it activated the published workflow (then every minute): that poll only notes what exists.
	await q.waitFor('the activation poll', () => contentPolls() >= 1, { timeoutMs: 60_000 });
	expect(await q.executions(cluster, q.TRIGGER_WF)).toEqual([]);
	const fresh = simulator.addPartnerLicences(sim.DEMO_PARTNER_KEY, 3);
	const runs = await settledExecutions(q.TRIGGER_WF, 'the next poll to start an execution');
	const workerOf = cluster.workerOf();
	for (const e of runs) {
		expect([e.status, e.mode]).toEqual(['success', 'trigger']);
		expect(['worker1', 'worker2']).toContain(workerOf[e.id]);
		const data = await q.executionData(cluster, e.id);
		const items = data.resultData.runData['New licence'][0].data.main[0];
		triggerKeys.push(...items.map((i) => i.json.video_key));
		// The masters the trigger downloaded (during the poll, on the main) are in Postgres, byte-exact.
		// n8n 2.41 files them under source "temp", not the execution id: found through the items' binary ids.
		const files = await q.referencedFiles(cluster, items, 'data');
		expect(files).toEqual(
			items.map((i) => {
				const f = simulator.getVideoFile(i.json.video_key);
				return {
					fileName: f.fileName,
					size: f.size,
					sha256: sim.fileSha256(i.json.video_key, f.size),
				};
			}),
		);
	}
	expect([...triggerKeys].sort()).toEqual([...fresh].sort());
	freshInC = fresh;
}, 300_000);

test('(e) the queue-mode example as shipped: its trigger (no Download File) polls on the main, Copy to Storage runs on a worker (database binary mode: no binary data at all), each master lands in the bucket byte-exact and Slack hears of it with its key and SHA-256', async () => {
	expect(freshInC).toHaveLength(3);
	const runs = await settledExecutions(example.id, "the example's execution");
	const workerOf = cluster.workerOf();
	const emitted = [];
	const titles = {};
	for (const e of runs) {
		expect([e.status, e.mode]).toEqual(['success', 'trigger']);
		expect(['worker1', 'worker2']).toContain(workerOf[e.id]); // the copy ran on a worker
		const data = await q.executionData(cluster, e.id);
		const items = data.resultData.runData['New licence on GridBank'][0].data.main[0];
		for (const i of items) {
			expect(i.binary).toBeUndefined(); // the poll on the main carried no file
			titles[i.json.video_key] = i.json.title;
		}
		emitted.push(...items.map((i) => i.json.video_key));
		const copies = data.resultData.runData['Copy to bucket'][0].data.main[0];
		expect(copies).toHaveLength(items.length);
		for (const c of copies) expect(c.binary).toBeUndefined(); // straight into the bucket
	}
	expect(emitted.sort()).toEqual([...freshInC].sort());
	const stored = await expectMastersInBucket({ job, sim, simulator }, freshInC);
	await q.waitFor('the Slack message', () => job.slack.messages.length >= runs.length, {
		timeoutMs: 30_000,
	});
	const text = job.slack.messages.map((m) => m.text).join('\n');
	expect(job.slack.messages.every((m) => m.channel === '#video-masters')).toBe(true);
	expect(text).not.toContain('NOT backed up');
	expectAnnounced(text, stored, titles, undefined, { withSha256: true });
}, 300_000);

test('(a) twenty downloads at once: both workers take part, every file byte-exact in the database', async () => {
	const keys = simulator
		.partnerLicences(sim.DEMO_PARTNER_KEY)
		.slice(10, 30)
		.map((l) => l.video_key);
	expect(keys).toHaveLength(20);
	const { answers, runs } = await downloadAll(keys);
	expect(answers.map((a) => a.status)).toEqual(keys.map(() => 200));
	expect(runs.map((r) => r.status)).toEqual(keys.map(() => 'success'));
	expect(runs.map((r) => r.videoKey).sort()).toEqual([...keys].sort());
	expectByteExact(runs);
	const byWorker = {};
	for (const r of runs) byWorker[r.worker] = (byWorker[r.worker] ?? 0) + 1;
	console.log(`[queue] 20 downloads by worker: ${JSON.stringify(byWorker)}`);
	expect(Object.keys(byWorker).sort()).toEqual(['worker1', 'worker2']);
}, 600_000);

test('(b) a file over what database mode can hold is refused before its body, naming the setting; the others are unaffected', async () => {
	const [big, ...others] = simulator
		.partnerLicences(sim.DEMO_PARTNER_KEY)
		.slice(40, 44)
		.map((l) => l.video_key);
	simulator.setVideoFile(big, { size: 1.5 * 1024 ** 3 });
	simulator.clearLog();
	const { runs } = await downloadAll([big, ...others]);
	const refused = runs.find((r) => r.status !== 'success');
	expect(runs.filter((r) => r.status === 'success')).toHaveLength(3);
	expectByteExact(runs);
	expect(refused.status).toBe('error');
	expect(refused.error.message).toMatch(/is too big for n8n's "database" binary data mode/);
	expect(refused.error.description).toMatch(/N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE/);
	expect(refused.error.description).toMatch(/N8N_DEFAULT_BINARY_DATA_MODE/);
	expect(refused.files).toEqual([]);
	// The worker asked storage once and read no body: it is alive and answers its health check.
	expect(
		simulator.log.filter((l) => l.target === 'storage' && l.path.includes(encodeURIComponent(big))),
	).toHaveLength(1);
	for (const w of cluster.workers)
		expect((await fetch(`http://127.0.0.1:${w.healthPort}/healthz`)).ok).toBe(true);
}, 300_000);

test('(pacing) three workflows on one key across the main and both workers stay under the account limit', async () => {
	const result = await q.measurePacing(cluster, pacingSim, {
		n: 200,
		limit: PACE_LIMIT,
		windowMs: PACE_WINDOW_MS,
	});
	console.log(`[queue] pacing: ${JSON.stringify(result)}`);
	expect(result.runs.map((r) => r.status)).toEqual(['success', 'success', 'success']);
	expect(result.runs.map((r) => r.process).sort()).toEqual(expect.arrayContaining(['main']));
	for (const r of result.runs) {
		expect(r.items).toBe(200);
		expect(r.distinctKeys).toBe(200);
		expect(r.withUrl).toBe(200);
	}
	// Nothing lost or duplicated (above), and the account's limit held without a single 429, though
	// the workers used the same key just before on the other simulator (scenarios a and b), which
	// reports no allowance; the benchmark reports the share of the limit over longer runs.
	expect(result.refused).toBe(0);
	expect(result.peakInWindow).toBeLessThanOrEqual(PACE_LIMIT);
	// A short run (about two windows): the benchmark measures the share too.
	expect(result.share).toBeGreaterThanOrEqual(0.75);
}, 900_000);

test("(d) a worker killed mid-download: n8n's recovery applies, nothing half-downloaded is reported as a success", async () => {
	const [key, after] = simulator
		.partnerLicences(sim.DEMO_PARTNER_KEY)
		.slice(50, 52)
		.map((l) => l.video_key);
	const file = simulator.getVideoFile(key);
	simulator.faults.slowDownload(Math.ceil(file.size / 20)); // about 20 s for this file
	const before = new Set((await q.executions(cluster, q.DOWNLOAD_WF)).map((e) => e.id));
	const pending = q
		.postWebhook(cluster, q.DOWNLOAD_PATH, { videoKey: key }, 240_000)
		.catch((e) => ({ status: 0, body: String(e) }));
	const { id, worker } = await q.waitFor(
		'a worker to start the download',
		async () => {
			const map = cluster.workerOf();
			const fresh = (await q.executions(cluster, q.DOWNLOAD_WF)).find(
				(e) => !before.has(e.id) && map[e.id],
			);
			return (
				fresh && { id: fresh.id, worker: cluster.workers.find((w) => w.name === map[fresh.id]) }
			);
		},
		{ timeoutMs: 60_000, everyMs: 250 },
	);
	await q.waitFor(
		'the transfer to be under way',
		() =>
			simulator.log.some((l) => l.target === 'storage' && l.path.includes(encodeURIComponent(key))),
		{ timeoutMs: 30_000, everyMs: 100 },
	);
	await new Promise((r) => setTimeout(r, 2000));
	worker.proc.kill('SIGKILL');
	await worker.proc.waitExit();
	simulator.faults.slowDownload(0);

	// n8n's own recovery: the job's lock lapses, the other worker's stalled check fails it, the main marks the execution.
	const settled = await q.waitFor(
		'n8n to settle the orphaned execution',
		async () => {
			const e = (await q.executions(cluster, q.DOWNLOAD_WF)).find((x) => x.id === id);
			return e && !['new', 'running'].includes(e.status) ? e : undefined;
		},
		{ timeoutMs: 240_000, everyMs: 2000 },
	);
	console.log(
		`[queue] killed ${worker.name} during execution ${id}: n8n marked it "${settled.status}"`,
	);
	expect(settled.status).not.toBe('success');
	expect(await q.binaries(cluster, id)).toEqual([]);
	const answer = await pending;
	expect(answer.status).not.toBe(200);

	// The worker comes back; the same download then succeeds, byte-exact.
	await cluster.restartWorker(worker);
	const { runs } = await downloadAll([key, after]);
	expect(runs.map((r) => r.status)).toEqual(['success', 'success']);
	expectByteExact(runs);
	// Nothing of this workflow is a success without its exact bytes.
	const all = await q.executions(cluster, q.DOWNLOAD_WF);
	for (const e of all.filter((x) => x.status === 'success'))
		expect((await q.binaries(cluster, e.id)).length).toBe(1);
}, 600_000);

test('(c, second part) later polls emit nothing twice', async () => {
	// At least one more scheduled poll has happened since the first part (the scenarios above take minutes).
	const before = contentPolls();
	await q.waitFor('one more scheduled poll', () => contentPolls() > before, {
		timeoutMs: 90_000,
		everyMs: 1000,
	});
	await new Promise((r) => setTimeout(r, 5000));
	const keys = [];
	for (const e of await q.executions(cluster, q.TRIGGER_WF)) {
		const data = await q.executionData(cluster, e.id);
		keys.push(
			...(data.resultData.runData['New licence']?.[0]?.data?.main?.[0] ?? []).map(
				(i) => i.json.video_key,
			),
		);
	}
	expect(keys.sort()).toEqual([...triggerKeys].sort());
	expect(new Set(keys).size).toBe(keys.length);
}, 180_000);

test("(g) a 2 GiB master, over database binary mode's cap, copied by Copy to Storage on a worker: the object byte-exact (SHA-256 streamed back through the S3 API), the item's SHA-256 GridBank's, nothing in n8n's binary data, no upload left", async () => {
	const SIZE = 2 * 1024 ** 3;
	const videoKey = simulator.partnerLicences(sim.DEMO_PARTNER_KEY).at(-1).video_key;
	simulator.setVideoFile(videoKey, { size: SIZE });
	const key = `queue-2gib/${videoKey}.mov`;
	const before = new Set((await q.executions(cluster, q.COPY_WF)).map((e) => e.id));
	const answer = await q.postWebhook(cluster, q.COPY_PATH, { videoKey, key }, 900_000);
	const expected = sim.fileSha256(videoKey, SIZE);
	expect([answer.status, answer.body]).toEqual([
		200,
		expect.objectContaining({ key, size: SIZE, sha256: expected, skipped: false }),
	]);
	const [run] = (await q.executions(cluster, q.COPY_WF)).filter((e) => !before.has(e.id));
	expect(run.status).toBe('success');
	expect(['worker1', 'worker2']).toContain(cluster.workerOf()[run.id]);
	expect(await q.binaries(cluster, run.id)).toEqual([]);
	expect(await job.object(key)).toEqual({ sha256: expected, size: SIZE });
	expect(await job.s3.listMultipartUploads(BUCKET)).toEqual([]);
}, 900_000);
