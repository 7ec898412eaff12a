// The WAN section of bench/results/results.md, from the summaries of wan-report.ts.
import { DEFAULT_CONNECTIONS } from '../nodes/shared/read-parameters';
import {
	show,
	summarizeConnections,
	summarizeLoaded,
	summarizeUneven,
	type WanEntry,
	type WanTarget,
} from './wan-report';
import { row } from './results-section';

const MB = 1e6;
const load = (l: [number, number]) => `${l[0]}–${l[1]}`;

/** The WAN section of bench/results/results.md. */
export function renderWan(
	entries: WanEntry[] | undefined,
	/** Run on its own (--only=wan): when, how and under which load, and its targets. */
	measured?: string,
	targets?: WanTarget[],
): string[] {
	if (!entries?.length) return [];
	const link = entries[0]!.link;
	return [
		'## WAN: parallel connections over a capped link',
		'',
		...(measured ? [measured, ''] : []),
		...(targets?.length
			? [
					row(['Measure', 'Result', 'Target', 'Met']),
					row(['---', '---', '---', '---']),
					...targets.map((t) => row([t.name, t.value, t.target, t.met ? 'yes' : '**no**'])),
					'',
				]
			: []),
		`The simulator's storage behind a WAN-like link (\`faults.wanLink\`): ${link.connectionBytesPerSecond / MB} MB/s per TCP connection, ${link.rttMs} ms round trip (two on a new connection), ${link.linkBytesPerSecond / MB} MB/s for the whole link. **ours**: Get Download URL with Download File and Options → Parallel Connections, in n8n's engine; **n8n alone**: one stream through n8n's own helpers; **raw**: undici, one stream, or as many equal ranged parts as connections written at their offsets (no order, no memory bound: the most the link gives); **aria2c**: the download accelerator, \`-x N -s N --min-split-size=1M --file-allocation=none\`, no resume file, the same signed URL into the same folder, its file's size and SHA-256 checked after. Each node and undici transfer runs in a fresh process after an 8 MiB warm-up. **Rounds are interleaved**: each round runs n8n alone and raw one stream, then per connection count ours, raw ranged parts and aria2c back to back, then the uneven profiles; ratios are taken within a round, then the median over rounds. MB/s: best round. CPU: user + system seconds per GiB of the process (aria2c's from bash's \`times\`), lowest round. Load: the 1-minute load average before and after each transfer, lowest–highest over the row's transfers.`,
		'',
		...entries.flatMap(renderEntry),
	];
}

function renderEntry(e: WanEntry): string[] {
	const n = e.rounds.length;
	const first = e.rounds[0];
	const rows = summarizeConnections(e);
	const lines = [
		`### ${e.label}, ${n} round(s): n8n alone ${Math.max(...e.rounds.map((x) => x.n8n.mbPerSecond))} MB/s, raw undici one stream ${Math.max(...e.rounds.map((x) => x.raw.mbPerSecond))} MB/s (best rounds; CPU-s per GiB ${first ? Math.min(...e.rounds.map((x) => x.n8n.cpuSecondsPerGiB)) : '—'} / ${first ? Math.min(...e.rounds.map((x) => x.raw.cpuSecondsPerGiB)) : '—'})`,
		'',
		e.aria2c.note ? `aria2c: ${e.aria2c.note}.` : `aria2c: ${e.aria2c.version ?? ''}.`,
		'',
		row([
			'Connections',
			'Ours MB/s',
			'Raw ranged MB/s',
			'aria2c MB/s',
			'Ours / aria2c',
			'Ours / raw',
			'Ours / link',
			'Ours / n8n alone',
			'CPU-s per GiB ours / raw / aria2c / n8n ranged',
			'CPU ours / raw, ours / n8n ranged',
			'Ours RSS growth',
			'aria2c peak RSS',
			'Load',
		]),
		row(Array(13).fill('---')),
		...rows.map((c) =>
			row([
				c.connections,
				c.oursBest,
				c.rawBest,
				show(c.aria2cBest),
				show(c.toAria2c),
				c.toRaw,
				c.shareOfLink,
				c.toN8n,
				`${c.cpu.ours} / ${c.cpu.raw} / ${show(c.cpu.aria2c)} / ${show(c.cpu.n8nRanged)}`,
				`${c.cpuToRaw}, ${show(c.cpuToN8nRanged)}`,
				`${c.oursRssMiB} MiB`,
				show(c.aria2cPeakRssMiB, ' MiB'),
				load(c.load),
			]),
		),
		'',
		"Ours / aria2c, ours / raw and ours / n8n alone: median of per-round ratios; ours / link: median MB/s of the rounds over the cap; CPU ours / raw and ours / n8n ranged: median of per-round ratios. **n8n ranged** (at 4 connections and up): the same ranged parts through n8n's own helpers (`httpRequest` stream → `prepareBinaryData`, one binary per part, no order, no checks, no hash): the floor any node that must use n8n's HTTP client and binary store sits on.",
		'',
	];
	const uneven = summarizeUneven(e);
	if (uneven.length)
		lines.push(
			`#### ${e.label}: uneven connections, ${DEFAULT_CONNECTIONS} connections (\`faults.unevenLink\`)`,
			'',
			row([
				'Profile',
				'Ours equal speeds MB/s',
				'Ours MB/s',
				'Throughput / equal',
				'Time / equal',
				'Fetched twice',
				'Handed over',
				'aria2c MB/s',
				'aria2c throughput / its equal',
				'aria2c time / its equal',
				'aria2c fetched twice',
				'Ours / aria2c',
				'Load',
			]),
			row(Array(13).fill('---')),
			...uneven.map((p) =>
				row([
					p.label,
					p.equalBest,
					p.oursBest,
					p.throughput,
					p.time,
					`${p.twiceShare} %`,
					p.handedOver.join(', '),
					show(p.aria2cBest),
					show(p.aria2cThroughput),
					show(p.aria2cTime),
					show(p.aria2cTwiceShare, ' %'),
					show(p.toAria2c),
					load(p.load),
				]),
			),
			'',
			"Equal speeds: the same round's run at the default connections. Throughput and time: median of per-round ratios. Fetched twice: bytes storage sent for the file beyond its size (the simulator's log), largest round, as a share of the file. Handed over: the item's `transfer.handedOver`, per round.",
			'',
		);
	const loaded = summarizeLoaded(e);
	if (loaded)
		lines.push(
			`#### ${e.label}: under load, ${loaded.busy}, ${DEFAULT_CONNECTIONS} connections`,
			'',
			row([
				'Ours MB/s',
				'aria2c MB/s',
				'Ours / aria2c',
				'CPU-s per GiB ours / aria2c',
				'Ours RSS growth',
				'Load',
			]),
			row(Array(6).fill('---')),
			row([
				loaded.oursBest,
				show(loaded.aria2cBest),
				show(loaded.toAria2c),
				`${loaded.cpu.ours} / ${show(loaded.cpu.aria2c)}`,
				`${loaded.oursRssMiB} MiB`,
				load(loaded.load),
			]),
			'',
		);
	return lines;
}
