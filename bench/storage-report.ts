// The storage-chain phase's rows, verdicts, targets and section of bench/results/results.md.
import { median, MiB, round } from './measure';
import { WAN_LINK } from './wan-phase';
import type { StorageNode } from './storage-workflows';
import { row } from './results-section';

export type StorageMode = 'filesystem' | 'default' | 'database';
/** loopback: the simulator's storage as fast as this machine serves it; wan: behind wan-phase.ts's WAN_LINK. */
export type StorageLink = 'loopback' | 'wan';

export interface StorageRow {
	mode: StorageMode;
	size: number;
	label: string;
	link: StorageLink;
	node: StorageNode;
	/** The n8n process's peak RSS (maxrss at exit), MiB. */
	peakMiB: number;
	/** Peak RSS above n8n alone's in the same run and mode, MiB. */
	growthMiB: number;
	peakRatioToN8n?: number;
	peakRatioToBaseline?: number;
	growthRatioToBaseline?: number;
	/** The Partner node's and the storage node's execution time together. */
	chainSeconds: number;
	mbPerSecond?: number;
	/** With rounds (storage-plans.ts): each round's MB/s, in order; mbPerSecond is their median. */
	mbPerSecondRounds?: number[];
	/** Over the WAN-like link: MB/s over the link's cap (what the link allows). */
	shareOfLink?: number;
	/** Copy to Storage: MB/s over the raw copy's (raw-copy.ts) in the same run and plan. */
	ratioToRawCopy?: number;
	destinationBytes?: number;
	hashOk?: boolean;
	verdict?: Verdict;
	error?: string;
}

/**
 * Flat: growth within the e2e suite's bound for a 600 MB master (150 MiB of n8n's own slack +
 * the 64 MiB parallel-download window), judged only where the file is at least four times that.
 */
export const FLAT_BOUND_MIB = 150 + 64;
export type Verdict = 'flat' | 'above the flat bound' | 'holds the file' | 'too small to tell';

export function verdict(r: StorageRow): Verdict {
	if (r.growthMiB >= r.size / MiB / 2) return 'holds the file';
	if (r.size / MiB < 4 * FLAT_BOUND_MIB) return 'too small to tell';
	return r.growthMiB <= FLAT_BOUND_MIB ? 'flat' : 'above the flat bound';
}

/** The copy's targets (issue 32): memory growth whatever the size, and the WAN link's throughput. */
export const COPY_GROWTH_LIMIT_MIB = 256;
export const COPY_LINK_SHARE = 0.9;
export const LINK_MB_PER_SECOND = WAN_LINK.linkBytesPerSecond / 1e6;
const where = (r: StorageRow) =>
	`${r.mode} ${r.label}${r.link === 'wan' ? ` over the WAN link (${LINK_MB_PER_SECOND} MB/s)` : ', loopback'}`;

export interface Target {
	name: string;
	target: string;
	value: string;
	met: boolean;
}

/** Every row's copy is GridBank's file; our Download + Read/Write Files stays flat at 1 GiB. */
export function storageTargets(rows: StorageRow[]): Target[] {
	const moved = rows.filter((r) => r.node !== 'n8n alone');
	const targets: Target[] = [
		{
			name: 'Storage chain: every destination holds GridBank’s file',
			target: 'size and SHA-256 equal, every row',
			value: moved
				.map(
					(r) =>
						`${r.mode} ${r.label}${r.link === 'wan' ? ' WAN' : ''} ${r.node}: ${r.error ? 'failed' : r.hashOk ? 'ok' : 'WRONG'}`,
				)
				.join('; '),
			met: moved.every((r) => r.hashOk === true),
		},
	];
	const baseline = moved.find(
		(r) =>
			r.mode === 'filesystem' &&
			r.link === 'loopback' &&
			r.node === 'Read/Write Files' &&
			r.size >= 1024 * MiB,
	);
	if (baseline)
		targets.push({
			name: `Storage chain, filesystem ${baseline.label}: GridBank -> Read/Write Files, peak RSS growth`,
			target: `≤ ${FLAT_BOUND_MIB} MiB over n8n alone`,
			value: `${baseline.growthMiB} MiB (peak ${baseline.peakMiB} MiB)`,
			met: baseline.growthMiB <= FLAT_BOUND_MIB,
		});
	for (const r of moved.filter((m) => m.node === 'Copy to Storage' && m.size >= 1024 * MiB)) {
		targets.push({
			name: `Copy to Storage, ${where(r)}: peak RSS growth over n8n alone`,
			target: `≤ ${COPY_GROWTH_LIMIT_MIB} MiB`,
			value: r.error ? `failed: ${r.error}` : `${r.growthMiB} MiB (peak ${r.peakMiB} MiB)`,
			met: !r.error && r.growthMiB <= COPY_GROWTH_LIMIT_MIB,
		});
		if (r.link === 'wan')
			targets.push({
				name: `Copy to Storage, ${where(r)}: MB/s / what the link allows`,
				target: `≥ ${COPY_LINK_SHARE}`,
				value: r.error
					? `failed: ${r.error}`
					: `${r.shareOfLink} (${r.mbPerSecond} of ${LINK_MB_PER_SECOND} MB/s${r.mbPerSecondRounds ? `, median of ${r.mbPerSecondRounds.length} rounds: ${r.mbPerSecondRounds.join(', ')}` : ''}${r.ratioToRawCopy === undefined ? '' : `; ${r.ratioToRawCopy} of the raw copy's`})`,
				met: !r.error && (r.shareOfLink ?? 0) >= COPY_LINK_SHARE,
			});
	}
	return targets;
}

/**
 * One row per node from a plan's rounds (each already compared within its round): MB/s, its
 * share of the link and its ratio to the raw copy are the medians over the rounds; the memory
 * columns are the round whose growth was largest; a failed or wrong round makes the row so.
 */
export function combineRounds(rounds: StorageRow[][]): StorageRow[] {
	const first = rounds[0] ?? [];
	if (rounds.length === 1) return first;
	return first.map((_, i) => {
		const all = rounds.map((r) => r[i] as StorageRow);
		const worst = all.reduce((a, b) => (b.growthMiB > a.growthMiB ? b : a));
		const failed = all.find((r) => r.error);
		const mid = (pick: (r: StorageRow) => number | undefined) => {
			const values = all.map(pick).filter((v): v is number => v !== undefined);
			return values.length === all.length ? round(median(values), 2) : undefined;
		};
		const mbPerSecond = mid((r) => r.mbPerSecond);
		return {
			...worst,
			mbPerSecond: mbPerSecond === undefined ? undefined : round(mbPerSecond),
			mbPerSecondRounds: all.map((r) => r.mbPerSecond ?? 0),
			shareOfLink: mid((r) => r.shareOfLink),
			ratioToRawCopy: mid((r) => r.ratioToRawCopy),
			chainSeconds: mid((r) => r.chainSeconds) ?? worst.chainSeconds,
			hashOk: all.every((r) => r.hashOk === true)
				? true
				: all.some((r) => r.hashOk !== undefined)
					? false
					: undefined,
			error: failed?.error,
		};
	});
}

/**
 * The storage-chain section of bench/results/results.md. From a run of its own (`measured` says when),
 * with its targets, which the Targets table at the top (from the full run) does not have.
 */
export function renderStorage(
	rows: StorageRow[] | undefined,
	measured?: string,
	targets?: Target[],
): string[] {
	if (!rows?.length) return [];
	return [
		'## Storage chain: GridBank -> Partner node -> n8n storage node -> destination',
		'',
		...(measured ? [measured, ''] : []),
		...(measured && targets?.length
			? [
					row(['Measure', 'Result', 'Target', 'Met']),
					row(['---', '---', '---', '---']),
					...targets.map((t) => row([t.name, t.value, t.target, t.met ? 'yes' : '**no**'])),
					'',
				]
			: []),
		`A real n8n (\`n8n execute\`, one process per row) runs Manual Trigger -> GridBank Partner (Get Download URL, Download File, 8 parallel connections) -> the storage node, against the simulator, the local S3-compatible server (scripts/services/s3-server.js), a local OpenSSH server (bench/sshd.ts) and the local disk. *Copy to Storage*: Manual Trigger -> GridBank Partner (Copy to Storage) straight into the local S3-compatible server, no binary data; its MB/s is that one node's time. Each n8n row's workflow waits 3 s (a Wait node, not timed) before the first measured node, so the transfer runs in an n8n that has finished starting (its task runner booted), as in a long-running n8n. Every row starts after \`sync\`, so no earlier row's writes are flushed to disk beside it. Peak RSS: the n8n process's maxrss at exit. Rounds (over the WAN link, 3 unless \`--storage-rounds\` says otherwise): every row of the plan, round after round; MB/s, / link and / raw copy are the medians over the rounds (each round's MB/s in brackets), the memory columns the round that grew most. "n8n alone": Manual Trigger -> No Op in the same run and mode. Ratios: peak RSS / n8n alone's, peak RSS / Read/Write Files' (the same file written by Read/Write Files), growth / Read/Write Files' growth. MB/s: the file size over the Partner and storage nodes' execution time together. Link: *loopback*, the simulator's storage as fast as this machine serves it (the upload to the local S3-compatible server is always loopback); *WAN*, GridBank's storage behind the WAN phase's link (${WAN_LINK.connectionBytesPerSecond / 1e6} MB/s per connection, ${WAN_LINK.rttMs} ms round trip, ${LINK_MB_PER_SECOND} MB/s in all), and "/ link" is MB/s over that ${LINK_MB_PER_SECOND} MB/s, what the link allows. *Raw copy* (not an n8n node: bench/raw-copy.ts, in a process of its own): undici fetching the same signed URL as ranged segments over the copy's connections, segment size and link, streamed in order into the same S3 server by AWS's own \`@aws-sdk/lib-storage\` Upload with the copy's part size and parts in flight, its default CRC32 part checksum instead of Content-MD5, no guards and no whole-file SHA-256: what this machine allows on that path in the same run; "/ raw copy" is the copy's MB/s over it. In default mode the file is in the run data, which \`n8n execute --rawOutput\` also prints: part of that mode's growth is the measurement's own. Hash: the destination's size and SHA-256 against the simulator's file. Memory: *holds the file* where the growth is at least half the file; else, with a file of at least ${4 * FLAT_BOUND_MIB} MiB, *flat* where it is at most ${FLAT_BOUND_MIB} MiB (the e2e suite's bound: 150 MiB of n8n's own slack + the 64 MiB parallel-download window), else *above the flat bound*; smaller files: *too small to tell*.`,
		'',
		row([
			'Mode',
			'Size',
			'Link',
			'Storage node',
			'Peak RSS',
			'Growth over n8n alone',
			'/ n8n alone',
			'/ Read/Write Files (peak, growth)',
			'MB/s',
			'/ link',
			'/ raw copy',
			'Hash',
			'Memory',
		]),
		row([
			'---',
			'---',
			'---',
			'---',
			'---',
			'---',
			'---',
			'---',
			'---',
			'---',
			'---',
			'---',
			'---',
		]),
		...rows.map((r) =>
			row([
				r.mode,
				r.label,
				r.link === 'wan' ? 'WAN' : 'loopback',
				r.node,
				r.node === 'Raw copy' ? '-' : `${r.peakMiB} MiB`,
				r.node === 'n8n alone' || r.node === 'Raw copy' ? '-' : `${r.growthMiB} MiB`,
				r.peakRatioToN8n ?? '-',
				r.peakRatioToBaseline === undefined
					? '-'
					: `${r.peakRatioToBaseline}, ${r.growthRatioToBaseline ?? '-'}`,
				r.mbPerSecond === undefined
					? '-'
					: r.mbPerSecondRounds
						? `${r.mbPerSecond} (median of ${r.mbPerSecondRounds.join(', ')})`
						: r.mbPerSecond,
				r.shareOfLink ?? '-',
				r.ratioToRawCopy ?? '-',
				r.node === 'n8n alone'
					? '-'
					: r.error
						? `failed: ${r.error}`
						: r.hashOk
							? 'ok'
							: '**wrong**',
				r.verdict ?? '-',
			]),
		),
		'',
	];
}
