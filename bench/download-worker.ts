// One measured download in a fresh process (forked by run.ts), so each transfer's peak RSS
// growth starts from the same state and no earlier transfer's memory hides or adds to it.
//
//   ours  the Partner node, Get Download URL with Download File, in n8n's engine
//   n8n   the engine's own streaming path without our code: a minimal node that does
//         this.helpers.httpRequest({encoding: 'stream'}) → this.helpers.prepareBinaryData
//   raw   undici streaming the signed URL straight to a file on the same disk
//   n8n-ranged  n8n's floor for parallel parts: `connections` equal byte ranges, each through
//         this.helpers.httpRequest (stream) into its own prepareBinaryData (no order, no window)
//   raw-ranged  undici fetching `connections` equal byte ranges at once, each written at its
//         offset in one file: the most the link gives, with no order and no memory bound
//
// argv: JSON {variant, size, baseUrl, videoKey, url?}; prints one JSON line with the result.
import './env';

import { createWriteStream } from 'node:fs';
import { rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';

import { USER_AGENT } from '../nodes/shared/version';
import { deleteBinaries, runNode } from '../test/harness/run-node';
import { signedUrlOf } from '../test/simulator/helpers';
import { DEMO_PARTNER_KEY } from '../simulator';
import { registerBareNodes } from './bare-nodes';
import { TMP } from './env';
import { type CpuBuckets, type GcKinds, profiled, watchGc } from './cpu-profile';
import { PeakRss } from './measure';
import { setBudgetStart } from '../nodes/shared/download/connection-budget';

// BENCH_BUDGET=one: a segmented download that stays one stream (cpu-floor.ts's bisections).
if (process.env.BENCH_BUDGET === 'one') setBudgetStart('one');

export interface WorkerInput {
	variant: 'ours' | 'n8n' | 'n8n-ranged' | 'raw' | 'raw-ranged';
	/** ours: Options → Parallel Connections (default: the node's default); n8n-ranged, raw-ranged: parts. */
	connections?: number;
	size: number;
	baseUrl: string;
	videoKey: string;
	/** raw: the signed URL to fetch (the one ours used). */
	url?: string;
	/** A small file to load and warm the code path first (same variant, not measured). */
	warmUpKey?: string;
	/** Run the measured transfer under the CPU profiler (timings then include its overhead). */
	profile?: boolean;
}

export interface WorkerResult {
	variant: WorkerInput['variant'];
	size: number;
	seconds: number;
	cpuUserMs: number;
	cpuSystemMs: number;
	rssBaselineBytes: number;
	rssPeakBytes: number;
	rssGrowthBytes: number;
	arrayBuffersPeakBytes: number;
	rssSource: string;
	url?: string;
	/** With `profile`: main-thread self time per bucket, ms. */
	cpu?: CpuBuckets;
	/** With `profile`: garbage collections by kind (count, ms). */
	gc?: GcKinds;
	/** ours: the item's `transfer.handedOver` (slow parts' tails another connection took). */
	handedOver?: number;
	/** ours: the item's `transfer.connections` (1 while the download stayed one stream). */
	connectionsUsed?: number;
}

registerBareNodes();
/** The last node run's hand-overs (the measured transfer runs last). */
let handedOver: number | undefined;
let connectionsUsed: number | undefined;

const signedUrl = (baseUrl: string, videoKey: string) =>
	signedUrlOf(baseUrl, videoKey, { ua: USER_AGENT });

async function rawRanged(
	input: WorkerInput,
	videoKey: string,
	size: number,
	url?: string,
): Promise<string> {
	const file = join(TMP, `raw-${process.pid}.bin`);
	const target = url ?? (await signedUrl(input.baseUrl, videoKey));
	const parts = input.connections ?? 4;
	const part = Math.ceil(size / parts);
	await writeFile(file, '');
	try {
		await Promise.all(
			Array.from({ length: parts }, async (_, i) => {
				const start = i * part;
				const end = Math.min(size, start + part);
				if (start >= end) return;
				const response = await request(target, {
					headers: { 'user-agent': USER_AGENT, range: `bytes=${start}-${end - 1}` },
				});
				if (response.statusCode !== 206)
					throw new Error(`raw ranged download: HTTP ${response.statusCode}`);
				await pipeline(response.body, createWriteStream(file, { flags: 'r+', start }));
			}),
		);
		const bytes = (await stat(file)).size;
		if (bytes !== size) throw new Error(`raw ranged download: ${bytes} of ${size} bytes`);
	} finally {
		await rm(file, { force: true });
	}
	return target;
}

async function transfer(
	input: WorkerInput,
	videoKey: string,
	size: number,
	url?: string,
): Promise<string | undefined> {
	if (input.variant === 'raw-ranged') return await rawRanged(input, videoKey, size, url);
	if (input.variant === 'raw') {
		const file = join(TMP, `raw-${process.pid}.bin`);
		const response = await request(url ?? (await signedUrl(input.baseUrl, videoKey)), {
			headers: { 'user-agent': USER_AGENT },
		});
		if (response.statusCode !== 200) throw new Error(`raw download: HTTP ${response.statusCode}`);
		try {
			await pipeline(response.body, createWriteStream(file));
			const bytes = (await stat(file)).size;
			if (bytes !== size) throw new Error(`raw download: ${bytes} of ${size} bytes`);
		} finally {
			await rm(file, { force: true });
		}
		return url;
	}
	const run =
		input.variant === 'ours'
			? await runNode({
					type: 'gridBankPartner',
					parameters: {
						operation: 'getDownloadUrl',
						videoKey,
						download: true,
						...(input.connections === undefined
							? {}
							: { options: { parallelConnections: input.connections } }),
					},
					credentials: { gridBankPartnerApi: { apiKey: DEMO_PARTNER_KEY, baseUrl: input.baseUrl } },
				})
			: input.variant === 'n8n-ranged'
				? await runNode({
						type: 'benchBareRangedDownload',
						parameters: {
							url: url ?? (await signedUrl(input.baseUrl, videoKey)),
							size,
							parts: input.connections ?? 8,
						},
					})
				: await runNode({
						type: 'benchBareDownload',
						parameters: { url: await signedUrl(input.baseUrl, videoKey) },
					});
	if (run.error)
		throw new Error(`${input.variant}: ${run.error.message} ${run.error.description ?? ''}`);
	const [item] = run.items;
	const figures = item?.json.transfer as { handedOver?: number; connections?: number } | undefined;
	handedOver = figures?.handedOver;
	connectionsUsed = figures?.connections;
	await deleteBinaries(run);
	const stored = run.items.reduce(
		(sum, one) => sum + Number(one.binary?.data?.bytes ?? one.json.fileSize),
		0,
	);
	if (stored !== size || !String(item?.binary?.data?.id ?? '').startsWith('filesystem'))
		throw new Error(
			`${input.variant}: expected ${size} bytes in filesystem binary data, got ${stored}`,
		);
	return item?.json.url === undefined ? undefined : String(item.json.url);
}

async function main(): Promise<void> {
	const input = JSON.parse(process.argv[2] ?? '{}') as WorkerInput;
	if (input.warmUpKey) await transfer(input, input.warmUpKey, 8 * 1024 * 1024);
	const meter = new PeakRss();
	meter.start();
	const cpuAtStart = process.cpuUsage();
	const t0 = performance.now();
	const gcWatch = input.profile ? watchGc() : undefined;
	const measured = () => transfer(input, input.videoKey, input.size, input.url);
	const { value: url, cpu } = input.profile
		? await profiled(measured)
		: { value: await measured(), cpu: undefined };
	const seconds = (performance.now() - t0) / 1000;
	const used = process.cpuUsage(cpuAtStart);
	const memory = meter.stop();
	const result: WorkerResult = {
		variant: input.variant,
		size: input.size,
		seconds,
		cpuUserMs: Math.round(used.user / 1000),
		cpuSystemMs: Math.round(used.system / 1000),
		rssBaselineBytes: memory.baselineBytes,
		rssPeakBytes: memory.peakBytes,
		rssGrowthBytes: memory.growthBytes,
		arrayBuffersPeakBytes: memory.arrayBuffersPeakBytes,
		rssSource: memory.source,
		url,
		cpu,
		gc: gcWatch?.(),
		handedOver,
		connectionsUsed,
	};
	process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
