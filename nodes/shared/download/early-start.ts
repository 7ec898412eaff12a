// When a part's connection may take its next segment: shortly before the part's last byte, not
// after it. Each segment's request costs a first-byte delay (a round trip, two on a new
// connection); asked after the last byte, that delay is lost for good whenever the connections
// together are the whole link (4 connections of 25 MB/s on a 100 MB/s link: 0.91 of aria2c,
// which opens its ranges once). Asked this early, the next segment's first byte comes about as
// this part's last does. Pure, so it is unit-tested alone; segmented-body.ts acts.
import type { PartView, Typical } from './hand-over';

/** How many usual first-byte delays before its end a part frees its connection. */
export const LEAD_LATENCIES = 1;

/**
 * Whether a part with `left` bytes to come gets them, at its own pace so far, within
 * LEAD_LATENCIES usual first-byte delays (`typical`, from finished responses). A part with no
 * byte yet, or no pace to judge by, is never near its end.
 */
export function nearItsEnd(
	part: Pick<PartView, 'bytes' | 'firstByteAt'>,
	left: number,
	typical: Typical | undefined,
	now: number,
): boolean {
	if (!typical || part.firstByteAt === undefined) return false;
	const rate = part.bytes / Math.max(1, now - part.firstByteAt);
	return left <= rate * LEAD_LATENCIES * typical.latencyMs;
}
