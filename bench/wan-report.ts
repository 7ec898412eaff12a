// The WAN phase's results, their summary over interleaved rounds and targets (pure:
// test/bench/wan-report.test.ts). Side-by-side figures are compared within a round (the
// transfers of a round run back to back, under the same load), then the median over rounds.
// The markdown: wan-render.ts.
import { DEFAULT_CONNECTIONS } from '../nodes/shared/read-parameters';
import { median } from './measure';

const MB = 1e6;

export interface WanLinkShape {
	connectionBytesPerSecond: number;
	rttMs: number;
	linkBytesPerSecond: number;
}

/** One measured transfer. */
export interface WanRun {
	mbPerSecond: number;
	seconds: number;
	cpuSeconds: number;
	cpuSecondsPerGiB: number;
	/** The node's and raw undici's processes: peak RSS growth during the transfer. */
	rssGrowthMiB?: number;
	/** aria2c: its peak RSS (VmHWM), absolute. */
	peakRssMiB?: number;
	/** 1-minute load average before and after the transfer. */
	load: [number, number];
	/** ours: the item's transfer.handedOver. */
	handedOver?: number;
	/** Uneven rows: bytes storage sent beyond the file's size (fetched twice). */
	bytesTwice?: number;
}

export interface WanRound {
	n8n: WanRun;
	raw: WanRun;
	byConnections: Array<{
		connections: number;
		ours: WanRun;
		rawRanged: WanRun;
		aria2c?: WanRun;
		/** n8n's own helpers with the same ranged parts (no order, no checks): the floor for the node's CPU. */
		n8nRanged?: WanRun;
	}>;
	/** At the default connections, on an uneven link (wan-uneven.ts). */
	uneven: Array<{ profile: string; ours: WanRun; aria2c?: WanRun }>;
}

export interface WanEntry {
	size: number;
	label: string;
	link: WanLinkShape;
	/** aria2c's version, or why it did not run and how to install it. */
	aria2c: { version?: string; note?: string };
	rounds: WanRound[];
	/** One core kept busy by a process the bench started (wan-loaded.ts). */
	loaded?: { busy: string; rounds: Array<{ ours: WanRun; aria2c?: WanRun }> };
}

export interface WanTarget {
	name: string;
	target: string;
	value: string;
	met: boolean;
}

/** The uneven profiles' names and what they mean (wan-uneven.ts sets them). */
export const PROFILE_LABELS: Record<string, string> = {
	slow: 'one connection of eight at a tenth of the speed',
	stalled: 'one connection stalled 10 s mid-segment',
	random: 'per-connection speeds drawn at random (seeded)',
};

const r = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const present = <T>(values: Array<T | undefined>): T[] =>
	values.filter((v) => v !== undefined) as T[];
const med = (values: number[]) => (values.length ? r(median(values)) : undefined);
export const show = (n: number | undefined, suffix = '') =>
	n === undefined ? '—' : `${n}${suffix}`;

/** Per connection count: best MB/s, per-round medians, CPU and memory, over the rounds. */
export function summarizeConnections(entry: WanEntry) {
	const cap = entry.link.linkBytesPerSecond / MB;
	const counts = entry.rounds[0]?.byConnections.map((c) => c.connections) ?? [];
	return counts.map((connections) => {
		const rows = present(
			entry.rounds.map((round) => round.byConnections.find((c) => c.connections === connections)),
		);
		const ours = rows.map((c) => c.ours);
		const withAria = rows.filter((c) => c.aria2c);
		const best = (runs: WanRun[]) =>
			runs.length ? Math.max(...runs.map((x) => x.mbPerSecond)) : undefined;
		const least = (runs: WanRun[]) =>
			runs.length ? Math.min(...runs.map((x) => x.cpuSecondsPerGiB)) : undefined;
		const aria = present(rows.map((c) => c.aria2c));
		const loads = rows.flatMap((c) =>
			[c.ours, c.rawRanged, ...present([c.aria2c, c.n8nRanged])].flatMap((x) => x.load),
		);
		return {
			connections,
			oursBest: best(ours) as number,
			rawBest: best(rows.map((c) => c.rawRanged)) as number,
			aria2cBest: best(aria),
			toAria2c: med(withAria.map((c) => c.ours.mbPerSecond / (c.aria2c as WanRun).mbPerSecond)),
			toRaw: med(rows.map((c) => c.ours.mbPerSecond / c.rawRanged.mbPerSecond)) as number,
			shareOfLink: r((median(ours.map((x) => x.mbPerSecond)) as number) / cap),
			toN8n: med(
				entry.rounds.map((round, i) => (rows[i]?.ours.mbPerSecond ?? 0) / round.n8n.mbPerSecond),
			) as number,
			cpu: {
				ours: least(ours) as number,
				raw: least(rows.map((c) => c.rawRanged)) as number,
				aria2c: least(aria),
				n8nRanged: least(present(rows.map((c) => c.n8nRanged))),
			},
			cpuToN8nRanged: med(
				rows
					.filter((c) => c.n8nRanged)
					.map((c) => c.ours.cpuSecondsPerGiB / (c.n8nRanged as WanRun).cpuSecondsPerGiB),
			),
			cpuToRaw: med(
				rows.map((c) => c.ours.cpuSecondsPerGiB / c.rawRanged.cpuSecondsPerGiB),
			) as number,
			oursRssMiB: Math.max(...ours.map((x) => x.rssGrowthMiB ?? 0)),
			aria2cPeakRssMiB: aria.length ? Math.max(...aria.map((x) => x.peakRssMiB ?? 0)) : undefined,
			load: [Math.min(...loads), Math.max(...loads)] as [number, number],
		};
	});
}

/** Per uneven profile: ours and aria2c against their own equal-speed run at the default connections in the same round. */
export function summarizeUneven(entry: WanEntry) {
	const names = entry.rounds[0]?.uneven.map((u) => u.profile) ?? [];
	return names.map((profile) => {
		const pairs = entry.rounds.flatMap((round) => {
			const equal = round.byConnections.find((c) => c.connections === DEFAULT_CONNECTIONS);
			const u = round.uneven.find((x) => x.profile === profile);
			return equal && u ? [{ equal, u }] : [];
		});
		const oursTwice = pairs.map(({ u }) => (u.ours.bytesTwice ?? 0) / entry.size);
		const ariaPairs = pairs.filter(({ equal, u }) => equal.aria2c && u.aria2c);
		return {
			profile,
			label: PROFILE_LABELS[profile] ?? profile,
			equalBest: Math.max(...pairs.map(({ equal }) => equal.ours.mbPerSecond)),
			oursBest: Math.max(...pairs.map(({ u }) => u.ours.mbPerSecond)),
			throughput: med(
				pairs.map(({ equal, u }) => u.ours.mbPerSecond / equal.ours.mbPerSecond),
			) as number,
			time: med(pairs.map(({ equal, u }) => u.ours.seconds / equal.ours.seconds)) as number,
			twiceShare: r(Math.max(...oursTwice) * 100),
			handedOver: pairs.map(({ u }) => u.ours.handedOver ?? 0),
			aria2cBest: ariaPairs.length
				? Math.max(...ariaPairs.map(({ u }) => (u.aria2c as WanRun).mbPerSecond))
				: undefined,
			aria2cThroughput: med(
				ariaPairs.map(
					({ equal, u }) => (u.aria2c as WanRun).mbPerSecond / (equal.aria2c as WanRun).mbPerSecond,
				),
			),
			aria2cTime: med(
				ariaPairs.map(
					({ equal, u }) => (u.aria2c as WanRun).seconds / (equal.aria2c as WanRun).seconds,
				),
			),
			aria2cTwiceShare: ariaPairs.length
				? r(Math.max(...ariaPairs.map(({ u }) => (u.aria2c?.bytesTwice ?? 0) / entry.size)) * 100)
				: undefined,
			toAria2c: med(
				ariaPairs.map(({ u }) => u.ours.mbPerSecond / (u.aria2c as WanRun).mbPerSecond),
			),
			load: loadRange(pairs.flatMap(({ u }) => [u.ours, ...present([u.aria2c])])),
		};
	});
}

function loadRange(runs: WanRun[]): [number, number] {
	const loads = runs.flatMap((x) => x.load);
	return [Math.min(...loads), Math.max(...loads)];
}

export function summarizeLoaded(entry: WanEntry) {
	const rounds = entry.loaded?.rounds ?? [];
	if (!rounds.length) return undefined;
	const withAria = rounds.filter((x) => x.aria2c);
	return {
		busy: entry.loaded?.busy ?? '',
		oursBest: Math.max(...rounds.map((x) => x.ours.mbPerSecond)),
		aria2cBest: withAria.length
			? Math.max(...withAria.map((x) => (x.aria2c as WanRun).mbPerSecond))
			: undefined,
		toAria2c: med(withAria.map((x) => x.ours.mbPerSecond / (x.aria2c as WanRun).mbPerSecond)),
		cpu: {
			ours: Math.min(...rounds.map((x) => x.ours.cpuSecondsPerGiB)),
			aria2c: withAria.length
				? Math.min(...withAria.map((x) => (x.aria2c as WanRun).cpuSecondsPerGiB))
				: undefined,
		},
		oursRssMiB: Math.max(...rounds.map((x) => x.ours.rssGrowthMiB ?? 0)),
		load: loadRange(rounds.flatMap((x) => [x.ours, ...present([x.aria2c])])),
	};
}

/** The targets of one size (issue 36 points 1 to 3 and 6, and the phase's earlier ones). */
export function wanTargets(entry: WanEntry, rssLimitMiB = 128): WanTarget[] {
	const label = `WAN ${entry.label}`;
	const cap = entry.link.linkBytesPerSecond / MB;
	const rows = summarizeConnections(entry);
	const at = rows.find((c) => c.connections === DEFAULT_CONNECTIONS);
	const best = rows.reduce((a, b) => (b.oursBest > a.oursBest ? b : a));
	const mostRss = Math.max(...rows.map((c) => c.oursRssMiB));
	const n = entry.rounds.length;
	const targets: WanTarget[] = [
		{
			name: `${label}: ours at the default (${DEFAULT_CONNECTIONS} connections) / n8n alone`,
			target: '≥ 3×',
			value: `${at?.toN8n}× (median of ${n} round(s))`,
			met: (at?.toN8n ?? 0) >= 3,
		},
		{
			name: `${label}: ours at the default (${DEFAULT_CONNECTIONS} connections) / link cap`,
			target: '≥ 0.92',
			value: `${at?.shareOfLink} (median of ${n} round(s) of ${cap} MB/s; best ${at?.oursBest} MB/s)`,
			met: (at?.shareOfLink ?? 0) >= 0.92,
		},
		{
			name: `${label}: ours at the best setting / link cap`,
			target: '≥ 0.8',
			value: `${r(best.oursBest / cap)} at ${best.connections} connections (best round ${best.oursBest} of ${cap} MB/s; raw undici, ${best.connections} ranged parts: ${best.rawBest})`,
			met: best.oursBest / cap >= 0.8,
		},
		{
			name: `${label}: peak RSS growth, any connection count`,
			target: `≤ ${rssLimitMiB} MiB`,
			value: `${mostRss} MiB`,
			met: mostRss <= rssLimitMiB,
		},
	];
	for (const c of rows.filter((x) => x.connections >= 4 && x.aria2cBest !== undefined))
		targets.push({
			name: `${label}: ours / aria2c at ${c.connections} connections`,
			target: '≥ 1.0 (median of per-round ratios)',
			value: `${c.toAria2c} (best ${c.oursBest} vs ${c.aria2cBest} MB/s)`,
			met: (c.toAria2c ?? 0) >= 1,
		});
	if (entry.aria2c.note)
		targets.push({
			name: `${label}: ours / aria2c`,
			target: '≥ 1.0',
			value: `not measured: ${entry.aria2c.note}`,
			met: false,
		});
	const worstCpu = rows.reduce((a, b) => (b.cpuToRaw > a.cpuToRaw ? b : a));
	targets.push({
		name: `${label}: CPU-s per GiB, ours / raw undici with the same ranged parts, every connection count`,
		target: '≤ 1.15',
		value: `${worstCpu.cpuToRaw} at ${worstCpu.connections} (${rows.map((c) => `${c.connections}: ${c.cpuToRaw}`).join(', ')})`,
		met: worstCpu.cpuToRaw <= 1.15,
	});
	targets.push(...unevenTargets(entry, label));
	const loaded = summarizeLoaded(entry);
	if (loaded?.toAria2c !== undefined)
		targets.push({
			name: `${label}, one core kept busy: ours / aria2c at the default (${DEFAULT_CONNECTIONS} connections)`,
			target: '≥ 0.9',
			value: `${loaded.toAria2c} (best ${loaded.oursBest} vs ${loaded.aria2cBest} MB/s; load ${loaded.load[0]}–${loaded.load[1]})`,
			met: loaded.toAria2c >= 0.9,
		});
	return targets;
}

function unevenTargets(entry: WanEntry, label: string): WanTarget[] {
	const profiles = summarizeUneven(entry);
	const targets: WanTarget[] = [];
	const slow = profiles.find((p) => p.profile === 'slow');
	if (slow)
		targets.push({
			name: `${label}, ${slow.label}: throughput / equal speeds`,
			target: '≥ 0.9',
			value: `${slow.throughput} (${slow.oursBest} vs ${slow.equalBest} MB/s; aria2c ${show(slow.aria2cThroughput)})`,
			met: slow.throughput >= 0.9,
		});
	const stalled = profiles.find((p) => p.profile === 'stalled');
	if (stalled)
		targets.push({
			name: `${label}, ${stalled.label}: time / equal speeds`,
			target: '≤ 1.15',
			value: `${stalled.time} (aria2c ${show(stalled.aria2cTime)})`,
			met: stalled.time <= 1.15,
		});
	if (profiles.length) {
		const worst = profiles.reduce((a, b) => (b.twiceShare > a.twiceShare ? b : a));
		targets.push({
			name: `${label}, uneven links: bytes fetched twice / file`,
			target: '≤ 2 %',
			value: `${worst.twiceShare} % at most (${profiles.map((p) => `${p.profile} ${p.twiceShare} %`).join(', ')})`,
			met: worst.twiceShare <= 2,
		});
	}
	return targets;
}
