// One Copy to Storage in n8n's engine (test/harness), over the WAN link, for profiling: the
// simulator and the S3 server each in a process of their own, as in the storage phase. Prints
// MB/s, this process's CPU and the children's (simulator, S3 server), the event loop's delay
// and peak RSS growth. After `npm run bench` has compiled into .cache/ts:
// bash scripts/node24 node --expose-gc [--cpu-prof | --trace-gc] .cache/ts/bench/copy-probe.js [MiB] [connections]
import './env';

import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

import { DEMO_PARTNER_KEY } from '../simulator';
import { runNode } from '../test/harness/run-node';
import { ROOT } from './env';
import { ChildSimulator } from './sim';
import { WAN_LINK } from './wan-phase';
import { PeakRss } from './measure';

async function s3Child(dir: string) {
	const child = fork(join(ROOT, 'scripts', 'services', 's3-server.js'), [dir, '0'], {
		stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
	});
	const endpoint = await new Promise<string>((resolve) =>
		child.stdout?.on('data', (d: Buffer) => {
			const m = /at (http:\/\/\S+)/.exec(d.toString());
			if (m) resolve(m[1] as string);
		}),
	);
	return { child, endpoint };
}

/** CPU seconds (user + system) of each child process of this one, by pid. */
function childCpu(): Record<string, number> {
	const out: Record<string, number> = {};
	const kids = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
		.trim()
		.split(/\s+/);
	for (const pid of kids.filter(Boolean)) {
		try {
			const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
			const cmd =
				readFileSync(`/proc/${pid}/cmdline`, 'utf8')
					.split('\0')
					.slice(1, 2)
					.join('')
					.split('/')
					.pop() ?? pid;
			out[cmd] = (Number(f[11]) + Number(f[12])) / 100;
		} catch {
			/* gone */
		}
	}
	return out;
}

async function main() {
	const mib = Number(process.argv[2] ?? 1024);
	const connections = Number(process.argv[3] ?? 8);
	const sim = await ChildSimulator.start();
	const dir = mkdtempSync(join(tmpdir(), 'copy-probe-'));
	const s3 = await s3Child(dir);
	try {
		const videoKey = await sim.benchVideo(40, mib * 1024 * 1024, 'probe.mov');
		await sim.call('faults.wanLink', WAN_LINK);
		const rss = new PeakRss();
		rss.start();
		const delay = monitorEventLoopDelay({ resolution: 10 });
		delay.enable();
		const cpu = process.cpuUsage();
		const kidsAt = childCpu();
		const t0 = performance.now();
		const run = await runNode({
			type: 'gridBankPartner',
			parameters: {
				operation: 'copyToStorage',
				videoKey,
				bucket: 'gridbank-masters',
				key: 'probe.mov',
				ifExists: 'overwrite',
				options: { parallelConnections: connections },
			},
			credentials: {
				gridBankPartnerApi: { apiKey: DEMO_PARTNER_KEY, baseUrl: sim.baseUrl },
				gridBankS3StorageApi: {
					endpoint: s3.endpoint,
					region: 'us-east-1',
					accessKeyId: 'S3RVER',
					secretAccessKey: 'S3RVER',
					addressing: 'path',
				},
			},
		});
		const seconds = (performance.now() - t0) / 1000;
		const used = process.cpuUsage(cpu);
		const kidsEnd = childCpu();
		const kids = Object.fromEntries(
			Object.entries(kidsEnd).map(([k, v]) => [k, Math.round((v - (kidsAt[k] ?? 0)) * 100) / 100]),
		);
		delay.disable();
		const memory = rss.stop();
		if (run.error) throw new Error(`${run.error.message} ${run.error.description ?? ''}`);
		const json = run.items[0]?.json ?? {};
		console.log(
			JSON.stringify({
				seconds,
				mbps: (mib * 1024 * 1024) / 1e6 / seconds,
				cpuSeconds: (used.user + used.system) / 1e6,
				childCpuSeconds: kids,
				load: readFileSync('/proc/loadavg', 'utf8').trim(),
				eventLoopP99Ms: delay.percentile(99) / 1e6,
				rssGrowthMiB: Math.round(memory.growthBytes / 1048576),
				eventLoopMaxMs: delay.max / 1e6,
				item: { mbps: json.mbps, transfer: json.transfer },
				probe: (globalThis as { __copyProbe?: unknown }).__copyProbe,
			}),
		);
	} finally {
		s3.child.kill();
		await sim.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
