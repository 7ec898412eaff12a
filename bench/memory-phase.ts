// Phase 6 of npm run bench: peak RSS growth of a parallel download at every Parallel Connections
// setting (1, 2, 4, 8, 16), over loopback and over the WAN link of wan-phase.ts, each beside n8n alone
// (one stream through n8n's own helpers) measured in the same round: the docs promise a memory
// window (64 MiB, segment-plan.ts) above what n8n itself holds, and this checks it.
import type { WorkerInput, WorkerResult } from './download-worker';
import type { ChildSimulator } from './sim';
import { GiB, median, MiB, round } from './measure';
import { WINDOW_BYTES } from '../nodes/shared/download/segment-plan';
import { MAX_CONNECTIONS } from '../nodes/shared/read-parameters';
import { row } from './results-section';

export const MEMORY_CONNECTIONS = [1, 2, 4, 8, MAX_CONNECTIONS];

export interface MemoryVariant {
	/** 0: n8n alone; else ours with that many Parallel Connections. */
	connections: number;
	/** Largest and median peak RSS growth over the rounds, MiB. */
	growthMaxMiB: number;
	growthMedianMiB: number;
	/** Largest peak RSS (whole process), MiB. */
	peakMiB: number;
	/** Largest process.memoryUsage().arrayBuffers seen: Buffers alive or not yet collected, MiB. */
	arrayBuffersPeakMiB: number;
	/** Median over rounds of this growth / n8n alone's growth in the same round. */
	ratioToN8nMedian: number;
	mbPerSecond: number;
	rounds: Array<{ growthMiB: number; peakMiB: number; seconds: number }>;
}

export interface MemoryEntry {
	link: 'loopback' | 'wan';
	size: number;
	label: string;
	rounds: number;
	variants: MemoryVariant[];
}

const mib = (bytes: number) => round(bytes / MiB);

export interface MemoryTarget {
	name: string;
	target: string;
	value: string;
	met: boolean;
}

/** `wanLink`: the WAN phase's link (wan-phase.ts), passed in so that this file imports no other phase. */
export async function benchMemory(
	sim: ChildSimulator,
	o: { size: number; rounds: { loopback: number; wan: number }; wanLink: object },
	worker: (input: WorkerInput) => Promise<WorkerResult>,
	log: (message: string) => void,
): Promise<{ entries: MemoryEntry[]; targets: MemoryTarget[] }> {
	const warmUpKey = await sim.benchVideo(20, 8 * MiB, 'warm-up.mov');
	const videoKey = await sim.benchVideo(21, o.size, 'memory.mov');
	const label = o.size >= GiB ? `${o.size / GiB} GiB` : `${o.size / MiB} MiB`;
	const base = { size: o.size, baseUrl: sim.baseUrl, videoKey, warmUpKey };
	const entries: MemoryEntry[] = [];
	const targets: MemoryTarget[] = [];
	for (const link of ['loopback', 'wan'] as const) {
		await sim.call('faults.wanLink', link === 'wan' ? o.wanLink : null);
		const runs = new Map<number, WorkerResult[]>();
		for (let r = 0; r < o.rounds[link]; r++) {
			for (const connections of [0, ...MEMORY_CONNECTIONS]) {
				const result = await worker(
					connections === 0
						? { ...base, variant: 'n8n' }
						: { ...base, variant: 'ours', connections },
				);
				runs.set(connections, [...(runs.get(connections) ?? []), result]);
				log(
					`memory ${link} ${label} round ${r + 1}, ${connections ? `ours ${connections} connection(s)` : 'n8n alone'}: RSS +${mib(result.rssGrowthBytes)} MiB (peak ${mib(result.rssPeakBytes)} MiB, Buffers ≤ ${mib(result.arrayBuffersPeakBytes)} MiB), ${round(o.size / 1e6 / result.seconds)} MB/s`,
				);
			}
		}
		await sim.call('faults.wanLink', null);
		const n8n = runs.get(0) as WorkerResult[];
		const variants = [...runs.entries()].map(([connections, list]): MemoryVariant => {
			const growth = list.map((m) => m.rssGrowthBytes);
			return {
				connections,
				growthMaxMiB: mib(Math.max(...growth)),
				growthMedianMiB: mib(median(growth)),
				peakMiB: mib(Math.max(...list.map((m) => m.rssPeakBytes))),
				arrayBuffersPeakMiB: mib(Math.max(...list.map((m) => m.arrayBuffersPeakBytes))),
				ratioToN8nMedian: round(
					median(list.map((m, i) => m.rssGrowthBytes / (n8n[i] as WorkerResult).rssGrowthBytes)),
					2,
				),
				mbPerSecond: round(Math.max(...list.map((m) => o.size / 1e6 / m.seconds))),
				rounds: list.map((m) => ({
					growthMiB: mib(m.rssGrowthBytes),
					peakMiB: mib(m.rssPeakBytes),
					seconds: round(m.seconds, 2),
				})),
			};
		});
		entries.push({ link, size: o.size, label, rounds: o.rounds[link], variants });
		targets.push(memoryTarget(link, label, variants));
	}
	return { entries, targets };
}

/**
 * The documented bound: ours grows by at most n8n alone's growth (the largest of the same run)
 * + twice the window. The window bounds the bytes waiting (segment-plan.ts); RSS also holds
 * Buffers already handed on that V8 has not freed yet: measured up to about one window more.
 */
function memoryTarget(link: string, label: string, variants: MemoryVariant[]): MemoryTarget {
	const n8n = variants.find((v) => v.connections === 0) as MemoryVariant;
	const ours = variants.filter((v) => v.connections > 0);
	const worst = ours.reduce((a, b) => (b.growthMaxMiB > a.growthMaxMiB ? b : a));
	const window = WINDOW_BYTES / MiB;
	const bound = n8n.growthMaxMiB + 2 * window;
	return {
		name: `Memory, ${label} over ${link}: peak RSS growth at every Parallel Connections setting`,
		target: `≤ n8n alone + 2 × the ${window} MiB window`,
		value: `${worst.growthMaxMiB} MiB at most (${worst.connections} connections; n8n alone ${n8n.growthMaxMiB}, bound ${round(bound)}; above n8n alone by ${round(worst.growthMaxMiB - n8n.growthMaxMiB)}); ${ours.map((v) => `${v.connections}: ${v.growthMaxMiB}`).join(', ')} MiB`,
		met: worst.growthMaxMiB <= bound,
	};
}

/** The memory section of bench/results/results.md. */
export function renderMemory(entries: MemoryEntry[] | undefined): string[] {
	if (!entries?.length) return [];
	return [
		'## Memory: peak RSS growth at every Parallel Connections setting',
		'',
		`Each transfer in a fresh process (after an 8 MiB warm-up); growth is the peak RSS (VmHWM and 10 ms samples) above the RSS when the transfer started. Each round runs n8n alone (one stream through n8n's helpers) and then ours at each setting, back to back; "/ n8n alone" is the median over rounds of the ratio within a round. The bytes waiting for n8n's store are bounded by the ${WINDOW_BYTES / MiB} MiB memory window (segment-plan.ts); the documented bound on RSS is n8n alone's growth plus twice the window (V8 frees network Buffers late). WAN: the link of the WAN section.`,
		'',
		...entries.flatMap((e) => [
			`### ${e.label} over ${e.link} (${e.rounds} round${e.rounds === 1 ? '' : 's'})`,
			'',
			row([
				'Variant',
				'Peak RSS growth, largest',
				'Median',
				'/ n8n alone (median)',
				'Peak RSS',
				'Peak Buffer memory',
				'MB/s (best)',
			]),
			row(['---', '---', '---', '---', '---', '---', '---']),
			...e.variants.map((v) =>
				row([
					v.connections
						? `ours, ${v.connections} connection${v.connections > 1 ? 's' : ''}`
						: 'n8n alone',
					`${v.growthMaxMiB} MiB`,
					`${v.growthMedianMiB} MiB`,
					v.ratioToN8nMedian,
					`${v.peakMiB} MiB`,
					`${v.arrayBuffersPeakMiB} MiB`,
					v.mbPerSecond,
				]),
			),
			'',
		]),
	];
}
