// npm run bench's command line (--short, --only, --wan-sizes, --wan-rounds, --memory-size, --queue) and the
// sizes and counts of each phase in full and short mode.
import { GiB, MiB } from './measure';

export const SHORT = process.argv.includes('--short') || process.env.BENCH_SHORT === '1';
/** --only=download,paging,overhead,pacing,scrub runs some phases (for profiling); results are then not written (--only=scrub, --only=storage or --only=wan alone, full mode, --only=wan at the full run's sizes (any --wan-rounds): its section of bench/results/results.md is). */
export const ONLY = process.argv
	.find((a) => a.startsWith('--only='))
	?.slice('--only='.length)
	.split(',');
export const phase = (name: string) => !ONLY || ONLY.includes(name);
/** --wan-sizes=1024,4096 (MiB) replaces the WAN phase's file sizes (with --only=wan, for a shorter run). */
export const WAN_SIZES = process.argv
	.find((a) => a.startsWith('--wan-sizes='))
	?.slice('--wan-sizes='.length)
	.split(',')
	.map((mib) => Number(mib) * 1024 * 1024);
/** --wan-rounds=N: interleaved rounds per WAN size (default: wanRoundsFor below). */
export const WAN_ROUNDS = Number(
	process.argv.find((a) => a.startsWith('--wan-rounds='))?.slice('--wan-rounds='.length) ?? NaN,
);
/**
 * WAN rounds per size: one in short mode; in full mode 3 up to 1 GiB (a round there takes about
 * 7 minutes) and 1 above (a 4 GiB round takes about 30: its one-stream rows run ~3 minutes each).
 */
export const wanRoundsFor = (size: number) =>
	WAN_ROUNDS >= 1 ? Math.floor(WAN_ROUNDS) : SHORT || size > GiB ? 1 : 3;
/** --memory-size=1024 (MiB) replaces the memory phase's file size. */
export const MEMORY_SIZE = process.argv
	.find((a) => a.startsWith('--memory-size='))
	?.slice('--memory-size='.length);

export const CONFIG = SHORT
	? {
			downloadSizes: [64 * MiB],
			downloadRounds: 1,
			partnerLarge: 10_000,
			enterpriseCounts: [1_200, 10_000],
			// Short: a smaller file, so that the single streams (~25 MB/s) stay within seconds.
			wanSizes: [128 * MiB],
			memorySize: 64 * MiB,
			memoryRounds: { loopback: 1, wan: 1 },
			pacingWindowMs: 6_000,
			pacingListItems: 8,
			pacingUrlItems: 300,
			overheadItems: 200,
		}
	: {
			downloadSizes: [1 * GiB, 4 * GiB],
			// Round-to-round noise on a shared 2-core VM is ±20 %: five rounds make the best one steadier.
			downloadRounds: 5,
			partnerLarge: 10_000,
			enterpriseCounts: [1_200, 8_000, 10_000],
			wanSizes: [1 * GiB, 4 * GiB],
			// Rounds: loopback transfers take seconds, WAN ones up to a minute (one stream at 25 MB/s).
			memorySize: 1 * GiB,
			memoryRounds: { loopback: 3, wan: 2 },
			pacingWindowMs: 6_000,
			pacingListItems: 80,
			pacingUrlItems: 1_000,
			overheadItems: 1_000,
		};
/** --queue: the queue-mode section only (bench/queue-phase.js; installs Redis and Postgres when missing). */
export const QUEUE = process.argv.includes('--queue');
