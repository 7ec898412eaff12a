// Phase 5 of npm run bench: downloads over a WAN-like link. The simulator caps each connection
// (25 MB/s), adds a 40 ms round trip and caps the whole link (100 MB/s), as object storage
// reached over the internet does; the node then runs with 1, 2, 4, 8 and 16 Parallel
// Connections, beside n8n alone (one stream through n8n's helpers), raw undici with one stream
// and raw undici with the same number of ranged parts (the most the link gives).
import type { WorkerInput, WorkerResult } from './download-worker';
import type { ChildSimulator } from './sim';
import { GiB, MiB } from './measure';
import { DEFAULT_CONNECTIONS } from '../nodes/shared/read-parameters';

export const WAN_LINK = { connectionBytesPerSecond: 25e6, rttMs: 40, linkBytesPerSecond: 100e6 };
export const WAN_CONNECTIONS = [1, 2, 4, 8, 16];
/** Bytes that may wait in memory for n8n's store, at any connection count (segment-plan.ts). */
const RSS_LIMIT = 128 * MiB;
const MB = 1e6;

/** What this phase adds to report.ts's Results, named here so report.ts can import this phase's renderer without a circle. */
interface WanResults {
	wan?: WanEntry[];
	targets: Array<{ name: string; target: string; value: string; met: boolean }>;
}

export interface WanMeasure {
	mbPerSecond: number;
	seconds: number;
	rssGrowthMiB: number;
	cpuSeconds: number;
}

export interface WanEntry {
	size: number;
	label: string;
	link: typeof WAN_LINK;
	n8n: WanMeasure;
	raw: WanMeasure;
	/** Per connection count: the node, and raw undici with that many ranged parts. */
	byConnections: Array<{
		connections: number;
		ours: WanMeasure;
		rawRanged: WanMeasure;
		ratioToN8n: number;
		shareOfLink: number;
	}>;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const measure = (r: WorkerResult): WanMeasure => ({
	mbPerSecond: round(r.size / MB / r.seconds),
	seconds: round(r.seconds, 2),
	rssGrowthMiB: round(r.rssGrowthBytes / MiB),
	cpuSeconds: round((r.cpuUserMs + r.cpuSystemMs) / 1000, 2),
});

export async function benchWan(
	results: WanResults,
	sim: ChildSimulator,
	sizes: number[],
	worker: (input: WorkerInput) => Promise<WorkerResult>,
	log: (message: string) => void,
): Promise<void> {
	const warmUpKey = await sim.benchVideo(10, 8 * MiB, 'warm-up.mov');
	await sim.call('faults.wanLink', WAN_LINK);
	const cap = WAN_LINK.linkBytesPerSecond / MB;
	results.wan = [];
	try {
		for (const [index, size] of sizes.entries()) {
			const videoKey = await sim.benchVideo(11 + index, size, `wan-${size}.mov`);
			const label = size >= GiB ? `${size / GiB} GiB` : `${size / MiB} MiB`;
			const base = { size, baseUrl: sim.baseUrl, videoKey, warmUpKey };
			const n8n = measure(await worker({ ...base, variant: 'n8n' }));
			const raw = measure(await worker({ ...base, variant: 'raw' }));
			log(
				`WAN ${label}: n8n alone ${n8n.mbPerSecond} MB/s, raw undici one stream ${raw.mbPerSecond} MB/s (link ${cap} MB/s)`,
			);
			const entry: WanEntry = { size, label, link: WAN_LINK, n8n, raw, byConnections: [] };
			for (const connections of WAN_CONNECTIONS) {
				const ours = measure(await worker({ ...base, variant: 'ours', connections }));
				const rawRanged = measure(await worker({ ...base, variant: 'raw-ranged', connections }));
				const row = {
					connections,
					ours,
					rawRanged,
					ratioToN8n: round(ours.mbPerSecond / n8n.mbPerSecond, 2),
					shareOfLink: round(ours.mbPerSecond / cap, 2),
				};
				entry.byConnections.push(row);
				log(
					`WAN ${label}, ${connections} connection(s): ours ${ours.mbPerSecond} MB/s (${row.ratioToN8n}× n8n alone, ${row.shareOfLink} of the link), RSS +${ours.rssGrowthMiB} MiB | raw ${connections} ranged parts ${rawRanged.mbPerSecond} MB/s`,
				);
			}
			results.wan.push(entry);
			const atDefault = entry.byConnections.find((c) => c.connections === DEFAULT_CONNECTIONS);
			const best = entry.byConnections.reduce((a, b) =>
				b.ours.mbPerSecond > a.ours.mbPerSecond ? b : a,
			);
			const mostRss = Math.max(...entry.byConnections.map((c) => c.ours.rssGrowthMiB));
			const targets: WanResults['targets'] = [
				{
					name: `WAN ${label}: ours at the default (${DEFAULT_CONNECTIONS} connections) / n8n alone`,
					target: '≥ 3×',
					value: `${atDefault?.ratioToN8n}× (${atDefault?.ours.mbPerSecond} vs ${n8n.mbPerSecond} MB/s)`,
					met: (atDefault?.ratioToN8n ?? 0) >= 3,
				},
				{
					name: `WAN ${label}: ours at the best setting / link cap`,
					target: '≥ 0.8',
					value: `${best.shareOfLink} at ${best.connections} connections (${best.ours.mbPerSecond} of ${cap} MB/s; raw undici, ${best.connections} ranged parts: ${best.rawRanged.mbPerSecond})`,
					met: best.shareOfLink >= 0.8,
				},
				{
					name: `WAN ${label}: peak RSS growth, any connection count`,
					target: size >= 4 * GiB ? '≤ 128 MiB' : '≤ 128 MiB (set for 4 GiB)',
					value: `${mostRss} MiB (n8n alone ${n8n.rssGrowthMiB}, raw ${raw.rssGrowthMiB})`,
					met: mostRss * MiB <= RSS_LIMIT,
				},
			];
			results.targets.push(...targets);
		}
	} finally {
		await sim.call('faults.wanLink', null);
	}
}

const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;

/** The WAN section of bench/results/results.md. */
export function renderWan(entries: WanEntry[] | undefined): string[] {
	if (!entries?.length) return [];
	const link = entries[0]!.link;
	return [
		'## WAN: parallel connections over a capped link',
		'',
		`The simulator's storage behind a WAN-like link (\`faults.wanLink\`): ${link.connectionBytesPerSecond / MB} MB/s per connection, ${link.rttMs} ms round trip (two on a new connection), ${link.linkBytesPerSecond / MB} MB/s for the whole link. One transfer per setting, each in a fresh process. **ours**: Get Download URL with Download File and Options → Parallel Connections; **n8n alone**: one stream through n8n's own helpers; **raw**: undici, one stream, or as many equal ranged parts as connections written at their offsets (no order, no memory bound: the most the link gives).`,
		'',
		...entries.flatMap((e) => [
			`### ${e.label}: n8n alone ${e.n8n.mbPerSecond} MB/s (RSS +${e.n8n.rssGrowthMiB} MiB), raw undici one stream ${e.raw.mbPerSecond} MB/s`,
			'',
			row([
				'Connections',
				'Ours MB/s',
				'Ours / n8n alone',
				'Ours / link cap',
				'Raw ranged parts MB/s',
				'Ours peak RSS growth',
				'Ours CPU-s',
			]),
			row(['---', '---', '---', '---', '---', '---', '---']),
			...e.byConnections.map((c) =>
				row([
					c.connections,
					c.ours.mbPerSecond,
					c.ratioToN8n,
					c.shareOfLink,
					c.rawRanged.mbPerSecond,
					`${c.ours.rssGrowthMiB} MiB`,
					c.ours.cpuSeconds,
				]),
			),
			'',
		]),
	];
}
