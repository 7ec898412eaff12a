// The raw copy's download (raw-copy.ts): undici fetching a signed URL as ranged segments over
// `connections` connections, each taking the next segment as soon as it has one (no window tied
// to the slowest), up to LOOK_AHEAD segments ahead of the reader, handed on in order. No guards
// but the status: the most this machine gives on that path.
import { Agent, request } from 'undici';

import { USER_AGENT } from '../nodes/shared/version';

export interface SegmentsInput {
	size: number;
	connections: number;
	segmentBytes: number;
}

/** Segments fetched ahead of the one the reader takes (memory: this many segments at most). */
const LOOK_AHEAD = 16;
/**
 * No byte received and no segment handed to the upload for this long: the copy stopped; it ends
 * saying where it stood instead of holding the whole benchmark. (The stops of the full run of
 * 2026-11-28, four raw copies of six: a worker back from waiting on the upload asked for a
 * segment past the file's end, the simulator answered 200 with the whole file, and that unread
 * answer held dispatcher.close() for ever, after the watchdog was cleared. Both fixed below.)
 */
const STALL_MS = 60_000;

/** The file's bytes in order, fetched as ranged segments over `connections` connections. */
export async function* rangedSegments(
	url: string,
	input: SegmentsInput,
	{
		lookAhead = LOOK_AHEAD,
		// The raw copy's process ends, saying why on stderr (raw-copy-run.ts reports it).
		onStall = (message: string): void => {
			console.error(message);
			process.exit(2);
		},
	} = {},
): AsyncGenerator<Buffer> {
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
		clearInterval(watchdog);
		onStall(
			`raw copy stalled ${STALL_MS / 1000} s: upload took ${consumed} of ${count} segments, ` +
				`${next} asked, fetched and waiting [${[...done.keys()].join(',')}], reading [${[...reading].join(',')}]`,
		);
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
			// Hold while the upload is lookAhead segments behind.
			while (next - consumed >= lookAhead && !failure) await new Promise((r) => setTimeout(r, 5));
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
