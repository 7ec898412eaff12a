// Phase 1 of npm run bench: getDownloadUrl + Download File against undici streaming the same
// signed URL to a file on the same disk, and n8n's own download path.
import { statfs } from 'node:fs/promises';
import { DEMO_PARTNER_KEY } from '../simulator';
import { TMP } from './env';
import { GiB, median, MiB } from './measure';
import type { Results } from './report';
import type { WorkerResult } from './download-worker';
import { ChildSimulator } from './sim';
import { CONFIG } from './options';
import { cpuPerGiB, log, mbps, round, RSS_ABOVE_N8N, worker } from './phase-helpers';

export async function benchDownload(results: Results): Promise<void> {
	// One file on disk at a time: each transfer's file is deleted before the next starts.
	const disk = await statfs(TMP);
	const free = disk.bavail * disk.bsize;
	const largest = Math.max(...CONFIG.downloadSizes);
	if (free < largest + GiB)
		throw new Error(
			`bench/tmp has ${round(free / GiB)} GiB free; the download phase needs ${round(largest / GiB + 1)} GiB`,
		);
	const sim = await ChildSimulator.start({ logLimit: 1_000 });
	try {
		const licences = (await sim.call('partnerLicences', DEMO_PARTNER_KEY)) as Array<{
			video_key: string;
		}>;
		const warmUpKey = licences[0]?.video_key as string;
		await sim.call('setVideoFile', warmUpKey, {
			size: 8 * MiB,
			fileName: 'warm-up.mov',
			disposition: 'filename',
		});

		for (const [index, size] of CONFIG.downloadSizes.entries()) {
			const videoKey = licences[index + 1]?.video_key as string;
			await sim.call('setVideoFile', videoKey, {
				size,
				fileName: `bench-${size}.mov`,
				disposition: 'filename',
			});
			const label = size >= GiB ? `${size / GiB} GiB` : `${size / MiB} MiB`;
			const runs: Record<'ours' | 'n8n' | 'raw', WorkerResult[]> = { ours: [], n8n: [], raw: [] };
			const base = { size, baseUrl: sim.baseUrl, videoKey, warmUpKey };
			for (let r = 0; r < CONFIG.downloadRounds; r++) {
				const ours = await worker({ ...base, variant: 'ours' });
				// The same signed URL (valid five minutes), streamed by undici straight to a file.
				const raw = await worker({ ...base, variant: 'raw', url: ours.url });
				const bare = await worker({ ...base, variant: 'n8n' });
				runs.ours.push(ours);
				runs.raw.push(raw);
				runs.n8n.push(bare);
				const show = (m: WorkerResult) =>
					`${round(mbps(m))} MB/s, ${round(cpuPerGiB(m), 2)} CPU-s/GiB, RSS +${round(m.rssGrowthBytes / MiB)} MiB (Buffers ≤ ${round(m.arrayBuffersPeakBytes / MiB)} MiB)`;
				log(
					`download ${label} round ${r + 1}: ours ${show(ours)} | n8n alone ${show(bare)} | raw ${show(raw)}`,
				);
			}
			// Where the CPU goes, for the first size: one more transfer per variant under the profiler
			// (not among the measured rounds: the profiler adds its own cost).
			let profile: Results['download'][number]['profile'];
			if (index === 0) {
				const perGiB = (m: WorkerResult) =>
					Object.fromEntries(
						Object.entries(m.cpu ?? {}).map(([k, ms]) => [k, Math.round((ms * GiB) / size)]),
					);
				const ours = await worker({ ...base, variant: 'ours', profile: true });
				const raw = await worker({ ...base, variant: 'raw', url: ours.url, profile: true });
				const bare = await worker({ ...base, variant: 'n8n', profile: true });
				profile = { ours: perGiB(ours), n8n: perGiB(bare), raw: perGiB(raw) };
				log(`download ${label} profiled (ms per GiB): ${JSON.stringify(profile)}`);
			}
			// Speed: the best round of each (the machine is shared; noise only slows a transfer down).
			// Memory: the largest growth of any round.
			const best = (list: WorkerResult[]) => list.reduce((a, b) => (mbps(b) > mbps(a) ? b : a));
			const summary = (list: WorkerResult[]) => ({
				mbPerSecond: round(mbps(best(list))),
				cpuSecondsPerGiB: round(Math.min(...list.map(cpuPerGiB)), 2),
				rssGrowthMiB: round(Math.max(...list.map((m) => m.rssGrowthBytes)) / MiB),
				rssGrowthMedianMiB: round(median(list.map((m) => m.rssGrowthBytes)) / MiB),
				arrayBuffersPeakMiB: round(Math.max(...list.map((m) => m.arrayBuffersPeakBytes)) / MiB),
				rounds: list.map((m) => ({
					seconds: round(m.seconds, 2),
					mbPerSecond: round(mbps(m)),
					cpuUserMs: m.cpuUserMs,
					cpuSystemMs: m.cpuSystemMs,
					rssGrowthMiB: round(m.rssGrowthBytes / MiB),
					arrayBuffersPeakMiB: round(m.arrayBuffersPeakBytes / MiB),
				})),
			});
			const entry = {
				size,
				label,
				ours: summary(runs.ours),
				n8n: summary(runs.n8n),
				raw: summary(runs.raw),
				ratio: 0,
				ratioToN8n: 0,
				// Each round runs ours, raw and n8n alone back to back: their ratio within a round
				// shares that moment's load, so its median shows the gap without most of the noise.
				pairedRatioMedian: round(
					median(runs.ours.map((m, i) => mbps(m) / mbps(runs.raw[i] as WorkerResult))),
					3,
				),
				pairedRatioToN8nMedian: round(
					median(runs.ours.map((m, i) => mbps(m) / mbps(runs.n8n[i] as WorkerResult))),
					3,
				),
				rssSource: runs.ours[0]?.rssSource ?? '',
				profile,
			};
			entry.ratio = round(entry.ours.mbPerSecond / entry.raw.mbPerSecond, 3);
			entry.ratioToN8n = round(entry.ours.mbPerSecond / entry.n8n.mbPerSecond, 3);
			results.download.push(entry);
			results.targets.push({
				name: `Download ${label}: ours / raw`,
				target: '≥ 0.9',
				value: `${entry.ratio.toFixed(3)} (best rounds ${entry.ours.mbPerSecond} vs ${entry.raw.mbPerSecond} MB/s; n8n's own path alone ${entry.n8n.mbPerSecond} MB/s, ours / n8n alone ${entry.ratioToN8n.toFixed(3)}; median of per-round ratios: ours / raw ${entry.pairedRatioMedian.toFixed(3)}, ours / n8n alone ${entry.pairedRatioToN8nMedian.toFixed(3)})`,
				met: entry.ratio >= 0.9,
			});
			if (size === CONFIG.downloadSizes[CONFIG.downloadSizes.length - 1])
				results.targets.push({
					name: `Download ${label}: peak RSS growth`,
					target: `≤ n8n alone + ${RSS_ABOVE_N8N / MiB} MiB (2 × the window)`,
					value: `${entry.ours.rssGrowthMiB} MiB, largest of ${CONFIG.downloadRounds} rounds (n8n alone ${entry.n8n.rssGrowthMiB}, raw undici ${entry.raw.rssGrowthMiB}; medians ${entry.ours.rssGrowthMedianMiB} / ${entry.n8n.rssGrowthMedianMiB} / ${entry.raw.rssGrowthMedianMiB}; Buffer memory peak ${entry.ours.arrayBuffersPeakMiB} / ${entry.n8n.arrayBuffersPeakMiB} / ${entry.raw.arrayBuffersPeakMiB} MiB)`,
					met: (entry.ours.rssGrowthMiB - entry.n8n.rssGrowthMiB) * MiB <= RSS_ABOVE_N8N,
				});
		}
	} finally {
		await sim.close();
	}
}
