// Where a download's CPU goes: V8's sampling profiler around one transfer (not the process's
// start-up), its self time summed into a few buckets that tell n8n's part, ours and Node's apart.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { constants, PerformanceObserver } from 'node:perf_hooks';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string };
}
interface Profile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

/** A frame as the profile tools print it: function, the file's last two path parts, 1-based line. */
export const frameName = (f: { functionName: string; url: string; lineNumber: number }) =>
	`${f.functionName || '(anon)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;

export const MEASURING = 'measuring (profiler start, RSS sampling)';

/** Buckets in report order; the first whose test matches a frame takes its time. */
export const BUCKETS: Array<{ name: string; test: (f: ProfileNode['callFrame']) => boolean }> = [
	// The benchmark's own cost: starting the profiler, the 10 ms RSS sampling.
	{
		name: MEASURING,
		test: (f) =>
			f.url === 'node:inspector' ||
			f.url.includes('/bench/bench/') ||
			(f.functionName === 'rss' && f.url === ''),
	},
	{ name: 'idle (waiting for network or disk)', test: (f) => f.functionName === '(idle)' },
	{ name: 'garbage collection', test: (f) => f.functionName === '(garbage collector)' },
	{
		name: 'GridBank nodes (ours)',
		test: (f) => /\/nodes\/(shared|GridBank)/.test(f.url) && !f.url.includes('node_modules'),
	},
	// The HTTP parsers are native (node:http's `execute`) or WebAssembly (undici's llhttp).
	{
		name: 'HTTP client (node:http, axios; undici for raw)',
		test: (f) =>
			/node:_http|node:http|\/axios\/|follow-redirects|\/undici\/|^wasm:/.test(f.url) ||
			(f.url === '' &&
				(f.functionName === 'execute' || /^(js-to-wasm|wasm-to-js)/.test(f.functionName))),
	},
	{ name: 'n8n (engine, binary data store)', test: (f) => /n8n-core|n8n-workflow/.test(f.url) },
	{
		name: 'streams',
		test: (f) => f.url.startsWith('node:internal/streams') || f.url === 'node:stream',
	},
	{
		name: 'file writes (fs)',
		test: (f) => f.url.startsWith('node:internal/fs') || f.functionName === 'writeBuffer',
	},
	{
		name: 'sockets, timers, promises',
		test: (f) =>
			/^node:(net|internal\/(stream_base_commons|timers|process\/task_queues))/.test(f.url) ||
			f.functionName === 'runMicrotasks',
	},
	{ name: 'other', test: () => true },
];

export type CpuBuckets = Record<string, number>;

/** Self time per bucket, in ms. */
export function summarize(profile: Profile): CpuBuckets {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const out: CpuBuckets = Object.fromEntries(BUCKETS.map((b) => [b.name, 0]));
	profile.samples.forEach((id, i) => {
		const frame = byId.get(id)?.callFrame;
		if (!frame) return;
		const bucket = BUCKETS.find((b) => b.test(frame)) as (typeof BUCKETS)[number];
		out[bucket.name] = (out[bucket.name] as number) + (profile.timeDeltas[i] ?? 0) / 1000;
	});
	return out;
}

/**
 * Runs `fn` under the CPU profiler (0.1 ms sampling) and returns its result and the buckets;
 * with BENCH_HEAP_PROFILE=<path prefix>, also under the sampling heap profiler (a .heapprofile).
 */
export async function profiled<T>(fn: () => Promise<T>): Promise<{ value: T; cpu: CpuBuckets }> {
	const session = new Session();
	session.connect();
	try {
		await session.post('Profiler.enable');
		await session.post('Profiler.setSamplingInterval', { interval: 100 });
		await session.post('Profiler.start');
		// BENCH_HEAP_PROFILE: the JavaScript allocations too, freed ones included (heap-top.ts).
		const heap = process.env.BENCH_HEAP_PROFILE;
		if (heap)
			await session.post('HeapProfiler.startSampling', {
				samplingInterval: 16384,
				includeObjectsCollectedByMajorGC: true,
				includeObjectsCollectedByMinorGC: true,
			});
		const value = await fn();
		if (heap) {
			const sampled = (await session.post('HeapProfiler.stopSampling')) as { profile: unknown };
			writeFileSync(`${heap}-${process.pid}.heapprofile`, JSON.stringify(sampled.profile));
		}
		const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
		// For a closer look (by function, in DevTools or bench/profile-top.ts): the whole profile.
		if (process.env.BENCH_CPU_PROFILE)
			writeFileSync(
				`${process.env.BENCH_CPU_PROFILE}-${process.pid}.cpuprofile`,
				JSON.stringify(profile),
			);
		return { value, cpu: summarize(profile) };
	} finally {
		session.disconnect();
	}
}

export type GcKinds = Record<string, { count: number; ms: number }>;

const GC_KIND: Record<number, string> = {
	[constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
	[constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
	[constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
	[constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/** Counts garbage collections by kind from now on; the returned function stops and tells. */
export function watchGc(): () => GcKinds {
	const kinds: GcKinds = {};
	const observer = new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) {
			const detail = (entry as unknown as { detail?: { kind: number; flags: number } }).detail;
			const flags = detail?.flags ?? 0;
			// Why a full collection ran: V8 says when external memory (Buffers) forced it.
			const kind = `${GC_KIND[detail?.kind ?? 0] ?? 'other'}${flags & constants.NODE_PERFORMANCE_GC_FLAGS_ALL_EXTERNAL_MEMORY ? ' (external memory)' : ''}${flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED ? ' (forced)' : ''}`;
			const k = (kinds[kind] ??= { count: 0, ms: 0 });
			k.count++;
			k.ms += entry.duration;
		}
	});
	observer.observe({ entryTypes: ['gc'] });
	return () => {
		observer.disconnect();
		for (const k of Object.values(kinds)) k.ms = Math.round(k.ms);
		return kinds;
	};
}
