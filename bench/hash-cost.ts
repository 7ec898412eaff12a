// What hashing costs a download (issue 36, point 5): CPU-seconds per GiB of SHA-256, MD5 and
// CRC32C alone over 64 KiB chunks, then a 1 GiB loopback download through the node, with and
// without its SHA-256 (hash-off-worker.ts), rounds interleaved, each transfer in a fresh process.
//   npm run bench -- is not used: tsc -p tsconfig.test.json --noEmit false --outDir .cache/ts,
//   then node .cache/ts/bench/hash-cost.js [rounds]
import { createHash } from 'node:crypto';

import { Crc32c } from '../nodes/shared/download/crc32c';
import { DEMO_PARTNER_KEY } from '../simulator';
import type { WorkerInput, WorkerResult } from './download-worker';
import { GiB, median, MiB } from './measure';
import { forkForJson } from './fork-json';
import { cpuPerGiB, log, mbps, round } from './phase-helpers';
import { ChildSimulator } from './sim';

/** 256 MiB of distinct 64 KiB chunks, more than any CPU cache: read cold, as a download's are. */
const POOL = Array.from({ length: 4096 }, (_, i) => Buffer.alloc(64 * 1024, i));

function alone(name: string, update: (chunk: Buffer) => void): number {
	const start = process.cpuUsage();
	for (let i = 0; i < GiB / (64 * 1024); i++) update(POOL[i % POOL.length]);
	const used = process.cpuUsage(start);
	const seconds = (used.user + used.system) / 1e6;
	log(`${name} alone: ${round(seconds, 2)} CPU-s per GiB`);
	return seconds;
}

const transfer = (file: string, input: WorkerInput) => forkForJson<WorkerResult>(file, input, file);

async function main() {
	const rounds = Number(process.argv[2] ?? 5);
	const sha = createHash('sha256');
	const md5 = createHash('md5');
	const crc = new Crc32c();
	alone('SHA-256', (c) => sha.update(c));
	alone('MD5', (c) => md5.update(c));
	alone('CRC32C', (c) => crc.update(c));

	const sim = await ChildSimulator.start({ logLimit: 1_000 });
	try {
		const [warm, big] = (await sim.call('partnerLicences', DEMO_PARTNER_KEY)) as Array<{
			video_key: string;
		}>;
		await sim.call('setVideoFile', warm.video_key, { size: 8 * MiB });
		await sim.call('setVideoFile', big.video_key, { size: GiB });
		const input: WorkerInput = {
			variant: 'ours',
			size: GiB,
			baseUrl: sim.baseUrl,
			videoKey: big.video_key,
			warmUpKey: warm.video_key,
		};
		const cpu = { with: [] as number[], without: [] as number[], ratio: [] as number[] };
		for (let r = 0; r < rounds; r++) {
			// Alternate which goes first, so a change of load between the two does not favour one.
			const first = r % 2 === 0 ? 'download-worker.js' : 'hash-off-worker.js';
			const second = r % 2 === 0 ? 'hash-off-worker.js' : 'download-worker.js';
			const a = await transfer(first, input);
			const b = await transfer(second, input);
			const [on, off] = r % 2 === 0 ? [a, b] : [b, a];
			cpu.with.push(cpuPerGiB(on));
			cpu.without.push(cpuPerGiB(off));
			cpu.ratio.push(cpuPerGiB(on) / cpuPerGiB(off));
			log(
				`round ${r + 1}: with SHA-256 ${round(cpuPerGiB(on), 2)} CPU-s/GiB (${round(mbps(on))} MB/s), without ${round(cpuPerGiB(off), 2)} (${round(mbps(off))} MB/s)`,
			);
		}
		log(
			`median: with ${round(median(cpu.with), 2)}, without ${round(median(cpu.without), 2)} CPU-s/GiB; per-round ratio median ${round(median(cpu.ratio), 3)}`,
		);
	} finally {
		await sim.close();
	}
}

void main();
