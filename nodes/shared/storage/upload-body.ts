// The ordered body of a download (every guard of nodes/shared/download/ on it) into the bucket:
// SHA-256 of the bytes as they pass, then one PUT (a file that fits one part) or a multipart
// upload whose parts go up in parallel, each with the checksum the store checks (part-checksum.ts). Memory:
// the parts in flight plus the one being filled (part-plan.ts), whatever the file's size: that
// many part buffers, reused. Any failure or cancel aborts the multipart upload, and the object
// appears only on Complete.
import { createHash } from 'node:crypto';

import type { BinaryStream } from '../download/ordered-output';
import { TransferError } from '../transport/body-stream';
import { partChecksum } from './part-checksum';
import { planParts, type PartPlan } from './part-plan';
import type { CopyRun } from './s3-call';
import {
	abortUpload,
	completeUpload,
	createUpload,
	type Landed,
	putObject,
	uploadPart,
} from './s3-ops';

export interface Uploaded extends Landed {
	size: number;
	sha256: string;
}

/** What the copy tells the upload about the file. */
export interface UploadFile {
	contentType: string;
	/** Bytes expected (the API's or storage's size); anything else fails before Complete. */
	size?: number;
	connections: number;
}

type Chunks = AsyncIterable<Buffer>;

const checkSize = (got: number, expected: number | undefined) => {
	if (expected !== undefined && got !== expected)
		throw new TransferError(`${got} bytes arrived of the ${expected} announced`);
};

async function single(run: CopyRun, body: Chunks, file: UploadFile): Promise<Uploaded> {
	const hash = createHash('sha256');
	const chunks: Buffer[] = [];
	for await (const chunk of body) {
		hash.update(chunk);
		chunks.push(chunk);
	}
	const whole = Buffer.concat(chunks);
	checkSize(whole.length, file.size);
	const landed = await putObject(run, whole, file.contentType);
	return { ...landed, size: whole.length, sha256: hash.digest('hex') };
}

async function multipart(
	run: CopyRun,
	body: Chunks,
	file: UploadFile,
	plan: PartPlan,
): Promise<Uploaded> {
	const { uploadId, partChecksum: kind } = await createUpload(run, file.contentType);
	const checksum = partChecksum(kind);
	const hash = createHash('sha256');
	const parts: Array<{ etag: string; sha256?: string }> = [];
	const inFlight = new Set<Promise<void>>();
	// Part buffers are made once and reused when their part is stored: each byte is copied once,
	// the network's chunks are let go at once, and no 8 MiB Buffer per part is left for V8 to free.
	const free: Buffer[] = [];
	let failure: unknown;
	let count = 0;
	let size = 0;
	let part: Buffer | undefined;
	let filled = 0;
	const send = (buffer: Buffer, length: number) => {
		const number = ++count;
		if (number > 10_000) throw new TransferError('the file needs more than 10,000 parts');
		const bytes = buffer.subarray(0, length);
		const check = checksum.finish();
		const sending: Promise<void> = uploadPart(run, uploadId, number, bytes, check).then(
			(etag) => {
				parts[number - 1] = { etag, ...(kind === 'sha256' ? { sha256: check.value } : {}) };
				free.push(buffer);
			},
			(error: unknown) => void (failure ??= error),
		);
		inFlight.add(sending);
		void sending.finally(() => inFlight.delete(sending));
	};
	let completed = false;
	try {
		for await (const chunk of body) {
			if (failure) throw failure;
			hash.update(chunk);
			size += chunk.length;
			for (let at = 0; at < chunk.length; ) {
				part ??= free.pop() ?? Buffer.allocUnsafeSlow(plan.partBytes);
				const copied = chunk.copy(part, filled, at, at + plan.partBytes - filled);
				checksum.update(chunk.subarray(at, at + copied));
				filled += copied;
				at += copied;
				if (filled < plan.partBytes) continue;
				send(part, filled);
				part = undefined;
				filled = 0;
				// Backpressure: the body waits (and with it the download) while the window is full.
				while (inFlight.size >= plan.inFlight && !failure) await Promise.race(inFlight);
				if (failure) throw failure;
			}
		}
		if (filled > 0 || count === 0) send(part ?? Buffer.alloc(0), filled);
		part = undefined;
		await Promise.all(inFlight);
		if (failure) throw failure;
		checkSize(size, file.size);
		const landed = await completeUpload(run, uploadId, parts);
		completed = true;
		return { ...landed, size, sha256: hash.digest('hex') };
	} finally {
		// Failed, cancelled or cut: the parts already stored are dropped (stores bill for them).
		if (!completed) {
			await Promise.allSettled(inFlight);
			await abortUpload(run, uploadId);
		}
	}
}

/** Uploads the body to run.target; `body` is the download's ordered stream. */
export async function uploadBody(
	run: CopyRun,
	body: BinaryStream,
	file: UploadFile,
): Promise<Uploaded> {
	const plan = planParts(file.size, file.connections);
	const chunks = body as unknown as Chunks;
	return plan.single ? await single(run, chunks, file) : await multipart(run, chunks, file, plan);
}
