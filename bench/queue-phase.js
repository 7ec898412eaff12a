'use strict';
/**
 * `npm run bench -- --queue`: the package in n8n's queue mode (scripts/queue/queue-cluster.js: Redis,
 * Postgres, an n8n main and two workers, binary data in the database), against the simulator
 * in this process.
 *
 *   1. throughput  N downloads at once through a webhook, with one worker vs two (rounds
 *                  alternate 2, 1, 1, 2 workers): files per second, MB/s, the ratio
 *   2. pacing      three workflows at once on one Partner key, one on the main and one on each
 *                  worker, 300 requests a minute (real time): 429s, share of the limit used;
 *                  PACE_RUNS times, a window apart. It follows the downloads on purpose: the
 *                  workers have just used the same key on the other simulator, as a real
 *                  worker's earlier executions would have.
 *
 * Writes bench/results/queue-results.json and the "Queue mode" section of bench/results/results.md (also kept
 * by later full runs, which re-append it from bench/results/queue-results.md).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const rt = require('../scripts/n8n/n8n-runtime');
const { startCluster } = require('../scripts/queue/queue-cluster');
const q = require('../scripts/queue/queue-helpers');

const SECTION_START = '<!-- queue-mode:start -->';
const SECTION_END = '<!-- queue-mode:end -->';
const DOWNLOADS = 40;
const PACE_LIMIT = 300;
const PACE_WINDOW_MS = 60_000;
const PACE_ITEMS = 300;
const PACE_RUNS = 3;

const round = (n, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function downloadRound(cluster, simulator, keys) {
	const before = new Set((await q.executions(cluster, q.DOWNLOAD_WF)).map((e) => e.id));
	const started = Date.now();
	const answers = await Promise.all(
		keys.map((videoKey) => q.postWebhook(cluster, q.DOWNLOAD_PATH, { videoKey })),
	);
	const seconds = (Date.now() - started) / 1000;
	const failed = answers.filter((a) => a.status !== 200).length;
	const runs = (await q.executions(cluster, q.DOWNLOAD_WF)).filter((e) => !before.has(e.id));
	const workerOf = cluster.workerOf();
	const byWorker = {};
	for (const e of runs)
		byWorker[workerOf[e.id] ?? 'unknown'] = (byWorker[workerOf[e.id] ?? 'unknown'] ?? 0) + 1;
	const bytes = keys.reduce((n, k) => n + simulator.getVideoFile(k).size, 0);
	return {
		seconds: round(seconds, 2),
		files: keys.length,
		failed,
		bytes,
		filesPerSecond: round(keys.length / seconds, 2),
		mbPerSecond: round(bytes / 1e6 / seconds, 1),
		byWorker,
	};
}

async function benchQueue({ log = (m) => console.log(`[bench] ${m}`) } = {}) {
	const started = Date.now();
	const sim = await rt.loadSimulator();
	const simulator = await sim.startSimulator({
		port: await rt.freePort(),
		storagePort: 0,
		partnerRatePerMinute: 0,
	});
	const pacingSim = await sim.startSimulator({
		port: await rt.freePort(),
		storagePort: 0,
		partnerRatePerMinute: PACE_LIMIT,
		rateWindowMs: PACE_WINDOW_MS,
		logLimit: 50_000,
	});
	let cluster;
	try {
		cluster = await startCluster({
			workers: 2,
			concurrency: 10,
			credentials: q.credentials(simulator.baseUrl, pacingSim.baseUrl, sim),
			workflows: [q.downloadWorkflow(), q.pacingWorkflow(PACE_ITEMS)],
			publish: [q.DOWNLOAD_WF, q.PACING_WF],
			log,
		});
		const licences = simulator.partnerLicences(sim.DEMO_PARTNER_KEY).map((l) => l.video_key);
		const rounds = [];
		const plan = [2, 1, 1, 2];
		for (const [i, workers] of plan.entries()) {
			const w2 = cluster.workers[1];
			if (workers === 1 && !w2.proc.exited) await w2.proc.stop();
			if (workers === 2 && w2.proc.exited) await cluster.restartWorker(w2);
			const keys = licences.slice(100 + i * DOWNLOADS, 100 + (i + 1) * DOWNLOADS);
			const r = await downloadRound(cluster, simulator, keys);
			log(
				`queue: ${DOWNLOADS} downloads with ${workers} worker(s): ${r.seconds} s, ${r.mbPerSecond} MB/s, by worker ${JSON.stringify(r.byWorker)}, ${r.failed} failed`,
			);
			rounds.push({ workers, ...r });
		}
		const one = median(rounds.filter((r) => r.workers === 1).map((r) => r.filesPerSecond));
		const two = median(rounds.filter((r) => r.workers === 2).map((r) => r.filesPerSecond));

		const measurements = [];
		for (let i = 1; i <= PACE_RUNS; i++) {
			// Each run starts with the account's window empty.
			if (i > 1) await new Promise((resolve) => setTimeout(resolve, PACE_WINDOW_MS + 1000));
			log(
				`queue: pacing run ${i}/${PACE_RUNS}, 3 workflows x ${PACE_ITEMS + 4} requests on one key, ${PACE_LIMIT} per ${PACE_WINDOW_MS / 1000} s ...`,
			);
			const pacing = await q.measurePacing(cluster, pacingSim, {
				n: PACE_ITEMS,
				limit: PACE_LIMIT,
				windowMs: PACE_WINDOW_MS,
			});
			log(
				`queue: pacing: ${pacing.accepted} accepted, ${pacing.refused} x 429, ${round(pacing.share * 100)} % of the limit, busiest window ${pacing.peakInWindow}, processes ${pacing.runs.map((r) => r.process).join(', ')}`,
			);
			measurements.push(pacing);
		}

		const cpus = os.cpus();
		const result = {
			date: new Date().toISOString(),
			seconds: Math.round((Date.now() - started) / 1000),
			machine: `${cpus[0]?.model.trim()}, ${cpus.length} cores (shared with other jobs), ${round(os.totalmem() / 1024 ** 3)} GiB RAM, Node ${process.version}`,
			loadAverage: os.loadavg().map((l) => round(l, 2)),
			n8n: rt.N8N_VERSION,
			downloads: {
				perRound: DOWNLOADS,
				rounds,
				oneWorkerFilesPerSecond: round(one, 2),
				twoWorkersFilesPerSecond: round(two, 2),
				ratio: round(two / one, 2),
			},
			pacing: {
				measurements,
				timeScaling: `none: ${PACE_LIMIT} requests per ${PACE_WINDOW_MS / 1000} s, GridBank's real window (the n8n processes pace on their own one-minute clock too, which a workflow cannot change; a time-scaled server window would measure that mismatch)`,
			},
		};
		write(result);
		log(
			`queue: done in ${result.seconds} s; wrote bench/results/queue-results.json and the Queue mode section of bench/results/results.md`,
		);
		return result;
	} finally {
		await cluster?.stop();
		await simulator.close();
		await pacingSim.close();
	}
}

function render(r) {
	const p = r.pacing;
	const m0 = p.measurements[0];
	const row = (cells) => `| ${cells.join(' | ')} |`;
	return [
		SECTION_START,
		'## Queue mode: a main, two workers, Redis, Postgres',
		'',
		`Measured ${r.date.slice(0, 16).replace('T', ' ')} UTC by \`npm run bench -- --queue\` in ${r.seconds} s, n8n ${r.n8n} (EXECUTIONS_MODE=queue, binary data in Postgres), Debian's redis-server and PostgreSQL on loopback, the simulator in the benchmark's process.`,
		`Machine: ${r.machine}; load average at the end ${r.loadAverage.join(', ')}. Everything (Postgres, Redis, the main, both workers, the simulator) shares the same 2 cores, so a second worker cannot double anything here: the ratio says whether work spreads, not what more cores would give.`,
		'',
		`### Downloads: ${r.downloads.perRound} at once through a webhook, one worker vs two`,
		'',
		row(['Round', 'Workers', 'Wall time', 'Files/s', 'MB/s', 'Executions by worker', 'Failed']),
		row(['---', '---', '---', '---', '---', '---', '---']),
		...r.downloads.rounds.map((x, i) =>
			row([
				i + 1,
				x.workers,
				`${x.seconds} s`,
				x.filesPerSecond,
				x.mbPerSecond,
				Object.entries(x.byWorker)
					.map(([k, v]) => `${k}: ${v}`)
					.join(', '),
				x.failed,
			]),
		),
		'',
		`Two workers / one worker (median files per second): **${r.downloads.ratio}** (${r.downloads.twoWorkersFilesPerSecond} vs ${r.downloads.oneWorkerFilesPerSecond} files/s).`,
		'',
		'### Pacing across processes: three workflows on one Partner key',
		'',
		`Time scaling: ${p.timeScaling}. One workflow runs on the main (started by hand), one on each worker (started by webhook); each lists ${m0.n} licences and asks a download URL for each. ${p.measurements.length} runs, a window apart, right after the downloads above (so the workers have just used the same key elsewhere).`,
		'',
		row([
			'Run',
			'Requests',
			'429 responses',
			'Busiest window',
			'Share of the limit',
			'Wall time',
			'Executions (process: items, distinct keys, with a URL)',
		]),
		row(['---', '---', '---', '---', '---', '---', '---']),
		...p.measurements.map((m, i) =>
			row([
				i + 1,
				m.requests,
				m.refused,
				`${m.peakInWindow} / ${m.limit}`,
				`${round(m.share * 100)} %`,
				`${round(m.ms / 1000)} s`,
				m.runs
					.map((x) => `${x.process}: ${x.items}, ${x.distinctKeys}, ${x.withUrl} (${x.status})`)
					.join('; '),
			]),
		),
		'',
		`Share of the limit, as the in-process pacing figure above counts it: the mean number of accepted requests in a window of ${m0.windowMs / 1000} s, over every such window between the first and the last request, divided by ${m0.limit}. Each process holds back 3 % of the limit for the others, and X-RateLimit-Reset is whole seconds, rounded up.`,
		SECTION_END,
		'',
	].join('\n');
}

function write(result) {
	const dir = path.join(rt.ROOT, 'bench', 'results');
	fs.writeFileSync(path.join(dir, 'queue-results.json'), `${JSON.stringify(result, null, '\t')}\n`);
	const section = render(result);
	fs.writeFileSync(path.join(dir, 'queue-results.md'), section);
	appendSection(path.join(dir, 'results.md'));
}

/** Puts the last queue-mode section (bench/results/queue-results.md) into a results.md, replacing an older one. */
function appendSection(resultsMd) {
	const sectionFile = path.join(rt.ROOT, 'bench', 'results', 'queue-results.md');
	if (!fs.existsSync(sectionFile) || !fs.existsSync(resultsMd)) return;
	const section = fs.readFileSync(sectionFile, 'utf8');
	let text = fs.readFileSync(resultsMd, 'utf8');
	const a = text.indexOf(SECTION_START);
	const b = text.indexOf(SECTION_END);
	if (a >= 0 && b > a)
		text = text.slice(0, a) + text.slice(b + SECTION_END.length).replace(/^\n+/, '');
	fs.writeFileSync(resultsMd, `${text.replace(/\n+$/, '')}\n\n${section}`);
}

module.exports = { benchQueue, appendSection };
