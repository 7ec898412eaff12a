// The raw copy: what this machine allows on Copy to Storage's path, in a fresh process forked by
// the storage phase (raw-copy-run.ts). undici fetches the same signed URL as ranged segments
// over `connections` connections (each takes the next segment as soon as it has one: no window
// tied to the slowest, up to LOOK_AHEAD segments ahead of the upload), and AWS's own
// lib-storage Upload streams them in order into the same S3 server with the copy's part size
// and parts in flight (queueSize), each part with the SDK's default checksum (CRC32 in this
// version, where the copy sends Content-MD5). No guards, no SHA-256 of the whole: the most the
// path gives.
//
// argv: JSON RawCopyInput; prints one JSON line, RawCopyResult.
import './env';

import { Readable } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Agent, request } from 'undici';

import { USER_AGENT } from '../nodes/shared/version';
import { signedUrlOf } from '../test/simulator/helpers';
import { PeakRss } from './measure';

export interface RawCopyInput {
	baseUrl: string;
	videoKey: string;
	size: number;
	connections: number;
	segmentBytes: number;
	partBytes: number;
	queueSize: number;
	s3: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
	bucket: string;
	key: string;
}

export interface RawCopyResult {
	seconds: number;
	cpuSeconds: number;
	rssGrowthBytes: number;
}

/** Segments fetched ahead of the one the upload reads (memory: this many segments at most). */
const LOOK_AHEAD = 16;
/**
 * No byte received and no segment handed to the upload for this long: the copy stopped; it ends
 * saying where it stood instead of holding the whole benchmark. (The stops of the full run of
 * 2026-11-28, four raw copies of six: a worker back from waiting on the upload asked for a
 * segment past the file's end, the simulator answered 200 with the whole file, and that unread
 * answer held dispatcher.close() for ever, after the watchdog was cleared. Both fixed below.)
 */
const STALL_MS = 60_000;

const signedUrl = (baseUrl: string, videoKey: string) =>
	signedUrlOf(baseUrl, videoKey, { ua: USER_AGENT });

/** The file's bytes in order, fetched as ranged segments over `connections` connections. */
async function* segments(url: string, input: RawCopyInput): AsyncGenerator<Buffer> {
	const { size, segmentBytes, connections } = input;
	const dispatcher = new Agent({ connections });
	const count = Math.ceil(size / segmentBytes);
	const done = new Map<number, Buffer>();
	let next = 0;
	let wake: (() => void) | undefined;
	let failure: unknown;
	let consumed = 0;
	let movedAt = Date.now();
	const reading = new Set<number>();
	const watchdog = setInterval(() => {
		if (Date.now() - movedAt < STALL_MS) return;
		console.error(
			`raw copy stalled ${STALL_MS / 1000} s: upload took ${consumed} of ${count} segments, ` +
				`${next} asked, fetched and waiting [${[...done.keys()].join(',')}], reading [${[...reading].join(',')}]`,
		);
		process.exit(2);
	}, 1000);
	watchdog.unref();
	const fetchOne = async (index: number) => {
		const start = index * segmentBytes;
		const end = Math.min(size, start + segmentBytes);
		const response = await request(url, {
			dispatcher,
			headers: { 'user-agent': USER_AGENT, range: `bytes=${start}-${end - 1}` },
		});
		if (response.statusCode !== 206) {
			// Unread, its connection would hold dispatcher.close() below for ever.
			response.body.destroy();
			throw new Error(`raw copy: HTTP ${response.statusCode} for bytes ${start}-${end - 1}`);
		}
		const chunks: Buffer[] = [];
		reading.add(index);
		for await (const chunk of response.body) {
			chunks.push(chunk as Buffer);
			movedAt = Date.now();
		}
		reading.delete(index);
		done.set(index, Buffer.concat(chunks));
	};
	const worker = async () => {
		while (next < count && !failure) {
			// Hold while the upload is LOOK_AHEAD segments behind.
			while (next - consumed >= LOOK_AHEAD && !failure) await new Promise((r) => setTimeout(r, 5));
			// Others may have taken the last segments while this one held.
			if (next >= count || failure) return;
			const index = next++;
			await fetchOne(index).catch((error: unknown) => void (failure ??= error));
			wake?.();
		}
	};
	const workers = Promise.all(Array.from({ length: connections }, worker));
	let complete = false;
	try {
		for (let index = 0; index < count; index++) {
			while (!done.has(index) && !failure) await new Promise<void>((r) => (wake = r));
			if (failure) throw failure;
			const segment = done.get(index) as Buffer;
			done.delete(index);
			consumed = index + 1;
			movedAt = Date.now();
			yield segment;
		}
		await workers;
		complete = true;
	} finally {
		clearInterval(watchdog);
		// A failure (or the upload giving up) leaves responses no one will read: close() would
		// wait on them.
		await (complete ? dispatcher.close() : dispatcher.destroy());
	}
}

async function main(): Promise<void> {
	const input = JSON.parse(process.argv[2] ?? '{}') as RawCopyInput;
	const url = await signedUrl(input.baseUrl, input.videoKey);
	const client = new S3Client({
		endpoint: input.s3.endpoint,
		region: input.s3.region,
		forcePathStyle: true,
		credentials: { accessKeyId: input.s3.accessKeyId, secretAccessKey: input.s3.secretAccessKey },
	});
	const meter = new PeakRss();
	meter.start();
	const cpuAtStart = process.cpuUsage();
	const t0 = performance.now();
	await new Upload({
		client,
		params: { Bucket: input.bucket, Key: input.key, Body: Readable.from(segments(url, input)) },
		partSize: input.partBytes,
		queueSize: input.queueSize,
	}).done();
	const seconds = (performance.now() - t0) / 1000;
	const used = process.cpuUsage(cpuAtStart);
	const result: RawCopyResult = {
		seconds,
		cpuSeconds: (used.user + used.system) / 1e6,
		rssGrowthBytes: meter.stop().growthBytes,
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
