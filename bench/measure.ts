// Small measuring tools: wall time, the process's peak resident set size, sliding-window rates.
import { readFileSync, writeFileSync } from 'node:fs';

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

export const now = () => performance.now();

/** The middle value (the mean of the two middle ones for an even count). */
/** `n` to `digits` decimals (1 unless said). */
export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2
		? (sorted[mid] as number)
		: ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function gc(): void {
	(globalThis as { gc?: () => void }).gc?.();
	(globalThis as { gc?: () => void }).gc?.();
}

function statusKb(field: string): number | undefined {
	try {
		const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
			readFileSync('/proc/self/status', 'utf8'),
		);
		return m ? Number(m[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Peak RSS growth over a measured section: the kernel's high-water mark (VmHWM, reset at the
 * start through /proc/self/clear_refs, so no peak between samples is missed) and, as a
 * cross-check and fallback, process.memoryUsage.rss() sampled every 10 ms. Also the peak of
 * ArrayBuffer memory (Buffers alive or not yet collected), sampled every 100 ms.
 */
export class PeakRss {
	private baseline = 0;
	private sampledPeak = 0;
	private arrayBuffersPeak = 0;
	private timer?: NodeJS.Timeout;
	private kernelReset = false;

	start(): void {
		gc();
		try {
			writeFileSync('/proc/self/clear_refs', '5');
			this.kernelReset = true;
		} catch {
			this.kernelReset = false;
		}
		this.baseline = process.memoryUsage.rss();
		this.sampledPeak = this.baseline;
		this.arrayBuffersPeak = 0;
		// process.memoryUsage() walks the heap's spaces (a few hundred µs): every 10th sample only.
		let tick = 0;
		this.timer = setInterval(() => {
			this.sampledPeak = Math.max(this.sampledPeak, process.memoryUsage.rss());
			if (tick++ % 10 === 0)
				this.arrayBuffersPeak = Math.max(this.arrayBuffersPeak, process.memoryUsage().arrayBuffers);
		}, 10);
	}

	/** arrayBuffersPeakBytes: Buffers alive or awaiting GC at the sampled peak (V8 collects them late). */
	stop(): {
		baselineBytes: number;
		peakBytes: number;
		growthBytes: number;
		arrayBuffersPeakBytes: number;
		source: string;
	} {
		clearInterval(this.timer);
		this.sampledPeak = Math.max(this.sampledPeak, process.memoryUsage.rss());
		const hwm = this.kernelReset ? statusKb('VmHWM') : undefined;
		const peak = Math.max(this.sampledPeak, hwm ?? 0);
		return {
			baselineBytes: this.baseline,
			peakBytes: peak,
			growthBytes: Math.max(0, peak - this.baseline),
			arrayBuffersPeakBytes: this.arrayBuffersPeak,
			source:
				hwm !== undefined
					? 'VmHWM (reset via clear_refs) and 10 ms samples'
					: '10 ms samples of process.memoryUsage.rss()',
		};
	}
}

/**
 * Mean number of requests in a window of `windowMs`, over every window that fits between the
 * first and the last request (sampled each `stepMs`). A client that saturates a sliding-window
 * limit gets close to the limit; one burst at the start does not inflate it the way
 * count / elapsed would.
 */
export function meanPerWindow(
	times: number[],
	windowMs: number,
	stepMs = 5,
): { mean: number; max: number; windows: number } {
	const t = [...times].sort((a, b) => a - b);
	if (t.length === 0) return { mean: 0, max: 0, windows: 0 };
	const first = t[0] as number;
	const last = t[t.length - 1] as number;
	let sum = 0;
	let max = 0;
	let windows = 0;
	let lo = 0;
	let hi = 0;
	for (let start = first; start + windowMs <= last + 1; start += stepMs) {
		while (lo < t.length && (t[lo] as number) < start) lo++;
		while (hi < t.length && (t[hi] as number) < start + windowMs) hi++;
		const count = hi - lo;
		sum += count;
		max = Math.max(max, count);
		windows++;
	}
	return { mean: windows ? sum / windows : 0, max, windows };
}

/** Largest number of requests inside any window of `windowMs` (exact, over request times). */
export function maxInWindow(times: number[], windowMs: number): number {
	const t = [...times].sort((a, b) => a - b);
	let max = 0;
	let lo = 0;
	for (let hi = 0; hi < t.length; hi++) {
		while ((t[hi] as number) - (t[lo] as number) >= windowMs) lo++;
		max = Math.max(max, hi - lo + 1);
	}
	return max;
}
