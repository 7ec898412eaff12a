// CPU per GiB of a parallel download beside its floors, for issue 36 point 3: ours at N
// connections, n8n's own helpers with N ranged parts (n8n-ranged: n8n's HTTP client and binary
// store, the floor the node cannot go below) and raw undici with N ranged parts, interleaved
// round after round, over loopback or the WAN phase's link; optionally under the CPU profiler
// (cpu-profile.ts buckets). Not part of `npm run bench` (run.ts): a tool for finding where CPU goes.
//
//   tsc -p tsconfig.test.json --noEmit false   (as npm run bench does), then
//   node --expose-gc .cache/ts/bench/cpu-floor.js --link=wan --mib=512 --connections=4,8,16 \
//     --variants=ours,n8n-ranged,raw-ranged --rounds=2 [--profile]
// With BENCH_BUDGET=one in the environment, ours stays one stream at any Parallel Connections
// (docs/downloads.md, "A parallel download over loopback, traced").
import './env';

import type { WorkerInput, WorkerResult } from './download-worker';
import { median, MiB } from './measure';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { forkForJson } from './fork-json';
import { cpuPerGiB, mbps } from './phase-helpers';
import { ChildSimulator } from './sim';

/** The WAN phase's link (wan-phase.ts): 25 MB/s per connection, 40 ms round trip, 100 MB/s in all. */
const WAN_LINK = { connectionBytesPerSecond: 25e6, rttMs: 40, linkBytesPerSecond: 100e6 };

const arg = (name: string, fallback: string) =>
	process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const list = (name: string, fallback: string) => arg(name, fallback).split(',').filter(Boolean);

/** phase-helpers.ts's worker, with V8 flags added (--v8=--trace-gc) and what else it printed kept. */
const worker = (input: WorkerInput, v8: string[], keep?: string) =>
	forkForJson<WorkerResult>('download-worker.js', input, `worker ${input.variant}`, {
		v8,
		...(keep ? { earlier: (text: string) => writeFileSync(keep, text) } : {}),
	});

async function main(): Promise<void> {
	const link = arg('link', 'wan');
	const size = Number(arg('mib', '512')) * MiB;
	const connections = list('connections', '4,8,16').map(Number);
	const variants = list('variants', 'ours,n8n-ranged,raw-ranged') as WorkerInput['variant'][];
	const rounds = Number(arg('rounds', '1'));
	const profile = process.argv.includes('--profile');
	const v8 = list('v8', '');
	const sim = await ChildSimulator.start();
	try {
		const warmUpKey = await sim.benchVideo(10, 8 * MiB, 'warm-up.mov');
		const videoKey = await sim.benchVideo(11, size, 'floor.mov');
		if (link === 'wan') await sim.call('faults.wanLink', WAN_LINK);
		const results = new Map<string, WorkerResult[]>();
		for (let round = 0; round < rounds; round++)
			for (const n of connections)
				for (const variant of variants) {
					const input: WorkerInput = {
						variant,
						connections: n,
						size,
						baseUrl: sim.baseUrl,
						videoKey,
						warmUpKey,
						profile,
					};
					const key = `${n} ${variant}`;
					const r = await worker(
						input,
						v8,
						v8.length
							? join(process.env.TMPDIR ?? '/tmp', `cpu-floor-${link}-${n}-${variant}.log`)
							: undefined,
					);
					results.set(key, [...(results.get(key) ?? []), r]);
					const busy = r.cpu
						? Object.entries(r.cpu)
								.map(([k, v]) => `${k.split(' (')[0]}=${Math.round((v * MiB * 1024) / size)}`)
								.join(' ')
						: '';
					process.stdout.write(
						`round ${round + 1} ${link} ${size / MiB} MiB ${key}: ${cpuPerGiB(r).toFixed(2)} CPU-s/GiB (user ${r.cpuUserMs} sys ${r.cpuSystemMs} ms), ${mbps(r).toFixed(1)} MB/s${r.connectionsUsed === undefined ? '' : `, ${r.connectionsUsed} connection(s) used`}, RSS +${(r.rssGrowthBytes / MiB).toFixed(1)} MiB, buffers ${(r.arrayBuffersPeakBytes / MiB).toFixed(1)} MiB ${busy}${r.gc ? ` gc ${JSON.stringify(r.gc)}` : ''}\n`,
					);
				}
		process.stdout.write(
			`\nmedian CPU-s/GiB over ${rounds} round(s), ${link}, ${size / MiB} MiB\n`,
		);
		for (const n of connections) {
			const cell = (v: string) => {
				const rs = results.get(`${n} ${v}`) ?? [];
				return `${v} ${median(rs.map(cpuPerGiB)).toFixed(2)} (${median(rs.map(mbps)).toFixed(1)} MB/s, RSS +${median(rs.map((r) => r.rssGrowthBytes / MiB)).toFixed(0)})`;
			};
			process.stdout.write(`${n} connections: ${variants.map(cell).join(' | ')}\n`);
		}
	} finally {
		await sim.close();
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
