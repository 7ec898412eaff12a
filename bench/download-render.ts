// The download phase's section of bench/results/results.md (a full run, or --only=download
// alone through phase-section.ts): the table of ours, n8n alone and raw, and where the CPU went.
import { MEASURING } from './cpu-profile';
import { row } from './results-section';

export interface DownloadSummary {
	mbPerSecond: number;
	cpuSecondsPerGiB: number;
	rssGrowthMiB: number;
	rssGrowthMedianMiB: number;
	/** Largest process.memoryUsage().arrayBuffers seen: Buffers alive or not yet collected. */
	arrayBuffersPeakMiB: number;
	rounds: Array<{
		seconds: number;
		mbPerSecond: number;
		cpuUserMs: number;
		cpuSystemMs: number;
		rssGrowthMiB: number;
		arrayBuffersPeakMiB: number;
	}>;
}

/** One file size of the download phase: ours beside n8n alone and raw. */
export interface DownloadEntry {
	size: number;
	label: string;
	ours: DownloadSummary;
	n8n: DownloadSummary;
	raw: DownloadSummary;
	/** ours / raw MB/s. */
	ratio: number;
	/** ours / n8n's own path MB/s. */
	ratioToN8n: number;
	/** Median over rounds of ours / raw within the same round. */
	pairedRatioMedian: number;
	/** Median over rounds of ours / n8n alone within the same round. */
	pairedRatioToN8nMedian: number;
	rssSource: string;
	/** One profiled transfer per variant: main-thread self time per bucket, ms per GiB. */
	profile?: {
		ours: Record<string, number>;
		n8n: Record<string, number>;
		raw: Record<string, number>;
	};
}

export function renderDownload(results: { download: DownloadEntry[] }): string[] {
	return [
		'## Download: Get Download URL with Download File',
		'',
		'Each transfer runs in a fresh process (after an 8 MiB warm-up), against the same simulator. **ours**: the Partner node in the engine, filesystem binary data. **n8n alone**: a minimal node in the same engine doing only `this.helpers.httpRequest({encoding: "stream"})` → `this.helpers.prepareBinaryData`, i.e. n8n\'s own streaming path without our code. **raw**: undici streaming the same signed URL straight to a file on the same disk (bench/tmp). MB/s: best round, and the median over rounds of the ratio within a round (the three transfers of a round run back to back, under the same load); CPU: the process\'s user + system CPU seconds per GiB, lowest round; RSS: largest growth of any round, and the median.',
		'',
		row([
			'File',
			'Ours MB/s',
			'n8n alone MB/s',
			'Raw MB/s',
			'Ours / raw',
			'Ours / n8n alone',
			'Per-round median: ours / raw, ours / n8n alone',
			'CPU-s per GiB (ours / n8n / raw)',
			'Peak RSS growth (ours / n8n / raw)',
			'Median RSS growth (ours / n8n / raw)',
			'Peak Buffer memory (ours / n8n / raw)',
		]),
		row(['---', '---', '---', '---', '---', '---', '---', '---', '---', '---', '---']),
		...results.download.map((d) =>
			row([
				d.label,
				d.ours.mbPerSecond,
				d.n8n.mbPerSecond,
				d.raw.mbPerSecond,
				d.ratio,
				d.ratioToN8n,
				`${d.pairedRatioMedian} / ${d.pairedRatioToN8nMedian}`,
				`${d.ours.cpuSecondsPerGiB} / ${d.n8n.cpuSecondsPerGiB} / ${d.raw.cpuSecondsPerGiB}`,
				`${d.ours.rssGrowthMiB} / ${d.n8n.rssGrowthMiB} / ${d.raw.rssGrowthMiB} MiB`,
				`${d.ours.rssGrowthMedianMiB} / ${d.n8n.rssGrowthMedianMiB} / ${d.raw.rssGrowthMedianMiB} MiB`,
				`${d.ours.arrayBuffersPeakMiB} / ${d.n8n.arrayBuffersPeakMiB} / ${d.raw.arrayBuffersPeakMiB} MiB`,
			]),
		),
		'',
		`RSS: ${results.download[0]?.rssSource ?? ''}, relative to the RSS when the measured transfer started.`,
		'',
		...profileSection(results),
	];
}

/** Where the CPU of one download went, per variant (the profiled transfer of the first size). */
function profileSection(results: { download: DownloadEntry[] }): string[] {
	const d = results.download.find((entry) => entry.profile);
	if (!d?.profile) return [];
	const { ours, n8n, raw } = d.profile;
	const total = (b: Record<string, number>) =>
		Object.entries(b).reduce(
			(sum, [k, ms]) => (k.startsWith('idle') || k === MEASURING ? sum : sum + ms),
			0,
		);
	return [
		`### Where the CPU goes (${d.label}, one profiled transfer per variant)`,
		'',
		"V8's sampling profiler (0.1 ms) around the transfer alone, main thread, self time in ms per GiB; \"other\" is mostly V8's and Node's native code. It does not see the libuv threads that write the file, nor the simulator's process.",
		'',
		row(['Bucket', 'Ours', 'n8n alone', 'Raw']),
		row(['---', '---', '---', '---']),
		...Object.keys(ours).map((bucket) =>
			row([bucket, ours[bucket] ?? 0, n8n[bucket] ?? 0, raw[bucket] ?? 0]),
		),
		row(['**busy (all but idle and measuring)**', total(ours), total(n8n), total(raw)]),
		'',
	];
}
