// npm run bench [-- --short]: the GridBank nodes in n8n's real engine (n8n-core WorkflowExecute,
// filesystem binary data) against the simulator, which runs in a child process so that its CPU
// and memory do not count as ours. Writes bench/results/results.json and bench/results/results.md.
//
//   1. download  getDownloadUrl + Download File, 1 GiB and 4 GiB, vs undici streaming the same
//                signed URL to a file on the same disk: MB/s, ours/raw, peak RSS growth
//   2. paging    Return All: Partner over 1,250 and 10,000 licences, Enterprise search over
//                1,200, 8,000 and 10,000 results (page cap): requests and wall time
//   3. pacing    three workflows at once on one Partner key, 300 per window, time-scaled
//   4. overhead  Get Download URL over 1,000 items, per item above the simulator's own time
//   5. wan       Download File over a WAN-like link (25 MB/s per connection, 40 ms, 100 MB/s in
//                all): 1, 2, 4, 8, 16 Parallel Connections vs n8n alone, raw undici and aria2c in
//                interleaved rounds, uneven links, one core kept busy (wan-phase.ts)
//   6. memory    peak RSS growth at 1, 2, 4, 8, 16 Parallel Connections, loopback and WAN, beside
//                n8n alone in the same rounds (memory-phase.ts)
//   7. storage   GridBank -> Download File -> n8n's S3, SFTP and Read/Write Files nodes in a
//                real n8n, per binary data mode, and Copy to Storage at 1 and 4 GiB, loopback
//                and over the WAN link: peak RSS, MB/s, hash (storage-phase.ts)
//   8. scrub     scrubbing a hostile 8 MiB answer, and the longest event-loop block while a
//                500 with such a body is retried (scrub-phase.ts)
//
// npm run bench -- --queue: n8n's queue mode instead (bench/queue-phase.js).
import './env';

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import os from 'node:os';
import { RESULTS, ROOT, TMP } from './env';
import { describeMachine } from './machine';
import { gc, MiB, now } from './measure';
import { renderMarkdown, type Results, type Target } from './report';
import { ChildSimulator } from './sim';
import { registerBareNodes } from './bare-nodes';
import { benchMemory } from './memory-phase';
import { benchWan, WAN_LINK } from './wan-phase';
import { CONFIG, MEMORY_SIZE, ONLY, phase, QUEUE, SHORT, WAN_SIZES, wanRoundsFor } from './options';
import { log, round, worker } from './phase-helpers';
import { benchDownload } from './download-phase';
import { benchPaging } from './paging-phase';
import { benchPacing } from './pacing-phase';
import { benchOverhead } from './overhead-phase';
import { benchStorageChain } from './storage-phase';
import { needsSshd, storagePlans } from './storage-plans';
import { benchScrub } from './scrub-phase';
import { ensureSshd } from './sshd';
import { writeScrubSection } from './scrub-report';
import { describeStorageRun, writeStorageSection } from './storage-section';
import { describeWanRun, writeWanSection } from './wan-section';
import { describeAloneRun, writeAlonePhaseSection } from './phase-section';

registerBareNodes();

// eslint-disable-next-line @typescript-eslint/no-require-imports
const queueMode = () =>
	require(join(ROOT, 'bench', 'queue-phase.js')) as {
		benchQueue(o: { log: typeof log }): Promise<unknown>;
		appendSection(file: string): void;
	};

async function main(): Promise<void> {
	if (QUEUE) {
		await queueMode().benchQueue({ log });
		return;
	}
	const started = now();
	await mkdir(TMP, { recursive: true });
	const results: Results = {
		mode: SHORT ? 'short' : 'full',
		date: new Date().toISOString(),
		machine: describeMachine(TMP),
		config: CONFIG,
		download: [],
		paging: [],
		pacing: undefined,
		overhead: undefined,
		targets: [] as Target[],
		seconds: 0,
		loadAverage: { start: [], end: [] },
	};
	log(
		`${results.mode} mode on ${results.machine.cpu}, ${results.machine.cores} cores, Node ${results.machine.node}`,
	);
	// What a later phase needs is checked (or installed) before the first one measures anything.
	if (phase('storage') && needsSshd(storagePlans(SHORT))) await ensureSshd();
	results.loadAverage.start = os.loadavg().map((l) => round(l, 2));
	if (phase('download')) await benchDownload(results);
	gc();
	if (phase('paging')) await benchPaging(results);
	gc();
	if (phase('overhead')) await benchOverhead(results);
	gc();
	if (phase('pacing')) await benchPacing(results);
	gc();
	if (phase('wan')) {
		const sim = await ChildSimulator.start({ logLimit: 1_000 });
		try {
			await benchWan(results, sim, WAN_SIZES ?? CONFIG.wanSizes, wanRoundsFor, worker, log);
		} finally {
			await sim.close();
		}
	}
	gc();
	if (phase('memory')) {
		const sim = await ChildSimulator.start({ logLimit: 1_000 });
		try {
			const size = MEMORY_SIZE ? Number(MEMORY_SIZE) * MiB : CONFIG.memorySize;
			const memory = await benchMemory(
				sim,
				{ size, rounds: CONFIG.memoryRounds, wanLink: WAN_LINK },
				worker,
				log,
			);
			results.memory = memory.entries;
			results.targets.push(...memory.targets);
		} finally {
			await sim.close();
		}
	}
	if (phase('storage')) {
		const sim = await ChildSimulator.start({ logLimit: 1_000 });
		const storage = await benchStorageChain(sim, storagePlans(SHORT), log).finally(() =>
			sim.close(),
		);
		results.storage = storage.rows;
		results.targets.push(...storage.targets);
	}
	gc();
	const scrub = phase('scrub') ? await benchScrub(results, SHORT) : undefined;
	// A phase run alone in full mode (--only=<one>) rewrites its own section of bench/results/results.md.
	const alone = ONLY?.length === 1 && !SHORT ? ONLY[0] : undefined;
	if (scrub && alone === 'scrub') writeScrubSection(scrub);
	results.seconds = round((now() - started) / 1000);
	results.loadAverage.end = os.loadavg().map((l) => round(l, 2));
	// Run alone (--only=wan, full mode), its entries replace the same sizes' entries in
	// bench/results/results.md (the section names the command, so its rounds); sizes other than
	// the full run's (--wan-sizes=256) write bench/tmp only.
	if (
		results.wan &&
		alone === 'wan' &&
		(WAN_SIZES ?? []).every((size) => CONFIG.wanSizes.includes(size))
	) {
		writeWanSection(results.wan, describeWanRun(results, process.argv.slice(2)));
		log('--only=wan: its section of bench/results/results.md and fields of results.json rewritten');
	}
	// Run alone (--only=download, or --only=memory at the full run's size), its section of
	// bench/results/results.md is written again, with its own targets.
	if (alone === 'download' || (alone === 'memory' && !MEMORY_SIZE)) {
		writeAlonePhaseSection(
			alone,
			results,
			describeAloneRun(results, process.argv.slice(2), `the ${alone} phase alone`),
		);
		log(
			`--only=${alone}: its section of bench/results/results.md and fields of results.json rewritten`,
		);
	}
	// Run alone (--only=storage, full mode), its rows replace their section of bench/results/results.md too.
	if (results.storage && alone === 'storage') {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { N8N_VERSION } = require(join(ROOT, 'scripts', 'n8n-versions.js')) as {
			N8N_VERSION: string;
		};
		const measured = describeStorageRun(results, process.argv.slice(2), N8N_VERSION);
		writeStorageSection(results, measured);
		log(
			'--only=storage: its section of bench/results/results.md and fields of results.json rewritten',
		);
	}
	if (ONLY) {
		// Written beside the scratch files, never over the committed results.
		await writeFile(join(TMP, 'results-only.json'), `${JSON.stringify(results, null, '\t')}\n`);
		await writeFile(join(TMP, 'results-only.md'), renderMarkdown(results));
		log(
			`--only: ${results.targets.filter((t) => t.met).length}/${results.targets.length} targets met; written to bench/tmp/results-only.*`,
		);
		for (const t of results.targets) log(`${t.met ? 'met' : 'MISSED'}: ${t.name}: ${t.value}`);
		return;
	}

	// A full run writes the committed results; a short run (CI) writes beside the scratch files.
	const base = SHORT ? join(TMP, 'results-short') : join(RESULTS, 'results');
	await writeFile(`${base}.json`, `${JSON.stringify(results, null, '\t')}\n`);
	await writeFile(`${base}.md`, renderMarkdown(results));
	if (!SHORT) queueMode().appendSection(`${base}.md`);
	const missed = results.targets.filter((t) => !t.met);
	log(
		`done in ${results.seconds} s: ${results.targets.length - missed.length}/${results.targets.length} targets met`,
	);
	for (const t of missed) log(`missed: ${t.name}: ${t.value} (target ${t.target})`);
	log(`wrote ${base.slice(ROOT.length + 1)}.json and .md`);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
