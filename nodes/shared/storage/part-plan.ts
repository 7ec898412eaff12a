// How a copy is cut into parts (pure). S3 allows 10,000 parts of 5 MiB to 5 GiB, all but the last
// at least 5 MiB. Parts are 8 MiB (the AWS CLI's default) unless the file needs bigger ones to fit
// 10,000 (above about 78 GiB; the 1 TiB ceiling needs 105 MiB); a file that fits one part goes as
// a single PUT. 8 MiB parts, 4 in flight, keep a copy's memory within the 256 MiB target with
// n8n's own slack and the download's window (measured: bench/results/results.md).
import { COPY_WINDOW_BYTES, MAX_SEGMENT_BYTES } from '../download/segment-plan';
import { MiB } from '../transport/values';

export const MIN_PART_BYTES = 5 * MiB;
export const DEFAULT_PART_BYTES = 8 * MiB;
export const MAX_PARTS = 10_000;
/** The parts in flight hold at most this much (at least one part): the upload's memory bound. */
export const UPLOAD_WINDOW_BYTES = 32 * MiB;

let baseBytes = DEFAULT_PART_BYTES;
export const basePartBytes = () => baseBytes;

/**
 * For tests only (as pacing.ts's setPacingWindow): the smallest part, so a few MiB make several
 * parts; at least 5 MiB, as S3 requires. docs/storage-copy.md names it.
 */
export function setBasePartBytes(bytes = DEFAULT_PART_BYTES): void {
	baseBytes = Math.max(MIN_PART_BYTES, bytes);
}

export interface PartPlan {
	partBytes: number;
	/** Parts uploading at once: Parallel Connections, within UPLOAD_WINDOW_BYTES. */
	inFlight: number;
	/** The size fits one part: a single PUT. */
	single: boolean;
}

/** `size` undefined (storage stated none): parts for the 1 TiB ceiling's worth. */
export function planParts(
	size: number | undefined,
	connections: number,
	base = basePartBytes(),
	ceiling = 1024 ** 4,
): PartPlan {
	const needed = Math.ceil((size ?? ceiling) / MAX_PARTS / MiB) * MiB;
	const partBytes = Math.max(base, needed, MIN_PART_BYTES);
	const inFlight = Math.max(1, Math.min(connections, Math.floor(UPLOAD_WINDOW_BYTES / partBytes)));
	return { partBytes, inFlight, single: size !== undefined && size <= partBytes };
}

/** The most the upload holds at once: the parts in flight and the one being filled. */
export const uploadMemoryBound = (plan: PartPlan) => (plan.inFlight + 1) * plan.partBytes;

/**
 * The copy's own bytes: the download's window of segments and the one segment asked early
 * (segment-plan.ts, at most 16 MiB), and the upload's.
 */
export const copyMemoryBound = (plan: PartPlan) =>
	COPY_WINDOW_BYTES + MAX_SEGMENT_BYTES + uploadMemoryBound(plan);
