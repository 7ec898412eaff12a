// What one attempt at a file saw, counted on the ordered stream as n8n's store receives it
// (ordered-output.ts calls `data` for every chunk and `end` before the stream ends): bytes,
// SHA-256 in order (no second read of the file), the content check storage offered
// (content-check.ts), resumes and hand-overs; and the progress lines (transfer-progress.ts).
// A digest that differs from storage's ends the stream with ContentMismatchError instead of
// ending it, so n8n's store drops the file and a copy aborts its upload.
import { createHash, type Hash } from 'node:crypto';

import { TransferError } from '../transport/body-stream';
import type { ItemRef } from '../validate';
import type { ContentCheck } from './content-check';
import { Crc32c } from './crc32c';
import { markPerVideo } from './delivery-failure';
import { storageError } from './storage-errors';
import type { TransferProgress } from './transfer-progress';
import type { TransferWaits } from './transfer-waits';

/** The bytes do not hash to the digest storage stated for the object. */
export class ContentMismatchError extends TransferError {
	constructor(
		readonly check: ContentCheck,
		readonly actual: string,
	) {
		super(`storage's ${check.source} is ${check.expected}, the bytes received hash to ${actual}`);
	}
}

/** The transfer's figures, as the item's `transfer` field carries them. */
export interface TransferFigures {
	seconds: number;
	mbps: number;
	connections: number;
	/** Breaks resumed with Range (the single stream or any segment). */
	resumes: number;
	/** Whole-file restarts (the object changed, or storage stopped honouring ranges). */
	restarts: number;
	/** Segments whose unfinished part another connection took over. */
	handedOver: number;
	/** Waits on storage's 429 / 503, and their total. */
	waits: number;
	waitedSeconds: number;
	/** The check storage offered and that the bytes passed (content-check.ts), or null. */
	contentCheck: ContentCheck['source'] | null;
}

/** Counted over every attempt at the file (a restart starts a new meter with the same counts). */
export interface TransferCounts {
	/** Breaks resumed with Range (resuming-body.ts, segmented-body.ts). */
	resumes: number;
	/** Segments whose unfinished part another connection took over. */
	handedOver: number;
}

export class TransferMeter {
	bytes = 0;
	/** Connections the file is fetched over: 1, or the plan's once it opened them (segmented-body.ts). */
	connections = 1;
	/** Set once the bytes ended: hex, when computed. */
	sha256: string | undefined;
	private readonly sha: Hash | undefined;
	private readonly other: Hash | Crc32c | undefined;

	constructor(
		readonly check: ContentCheck | undefined,
		private readonly progress: TransferProgress,
		/** False when the caller hashes the bytes itself (a copy) and storage offers no SHA-256. */
		withSha256: boolean,
		readonly counts: TransferCounts = { resumes: 0, handedOver: 0 },
	) {
		this.sha = withSha256 || check?.algorithm === 'sha256' ? createHash('sha256') : undefined;
		this.other =
			check?.algorithm === 'md5'
				? createHash('md5')
				: check?.algorithm === 'crc32c'
					? new Crc32c()
					: undefined;
	}

	/** The download now uses this many connections (the progress lines say so from now on). */
	useConnections(connections: number): void {
		this.connections = connections;
		this.progress.useConnections(connections);
	}

	data(chunk: Buffer): void {
		this.sha?.update(chunk);
		this.other?.update(chunk);
		this.bytes += chunk.length;
		this.progress.update(this.bytes);
	}

	/** The bytes are complete: the mismatch that must fail the stream, if any. */
	end(): ContentMismatchError | undefined {
		this.sha256 = this.sha?.digest('hex');
		const check = this.check;
		if (!check) return undefined;
		const actual =
			check.algorithm === 'sha256'
				? (this.sha256 as string)
				: (this.other as Hash | Crc32c).digest().toString('hex');
		return actual === check.expected ? undefined : new ContentMismatchError(check, actual);
	}
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The item's figures of a transfer that ended well; `sha256` when it was computed. */
export function transferFigures(
	meter: TransferMeter,
	run: { startedAt: number; restarts: number; waits: TransferWaits },
): { sha256?: string; transfer: TransferFigures } {
	const seconds = Math.max(Date.now() - run.startedAt, 1) / 1000;
	return {
		...(meter.sha256 ? { sha256: meter.sha256 } : {}),
		transfer: {
			seconds: round(seconds, 3),
			mbps: round(meter.bytes / 1e6 / seconds, 2),
			connections: meter.connections,
			resumes: meter.counts.resumes,
			restarts: run.restarts,
			handedOver: meter.counts.handedOver,
			waits: run.waits.waits,
			waitedSeconds: round(run.waits.waitedMs / 1000, 3),
			contentCheck: meter.check?.source ?? null,
		},
	};
}

/** The item's failure: the file is not what storage says it stored (a fault of the video's file). */
export function contentMismatchError(item: ItemRef, error: ContentMismatchError) {
	return markPerVideo(
		storageError(
			item,
			`The downloaded file does not match the checksum GridBank's storage states (${error.check.source})`,
			`Storage states ${error.check.algorithm.toUpperCase()} ${error.check.expected} for this file, but the bytes received hash to ${error.actual}. Nothing was passed on. Try again; if it persists, contact GridBank support about this video.`,
		),
	);
}
