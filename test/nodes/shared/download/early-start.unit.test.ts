// When a part's connection may take the next segment (early-start.ts): about one first-byte
// delay before the part's last byte, judged at the part's own pace.
import { LEAD_LATENCIES, nearItsEnd } from '../../../../nodes/shared/download/early-start';
import { MiB } from '../../../../nodes/shared/transport/values';

/** 20 MB/s (20,000 bytes per ms), 40 ms to the first byte. */
const typical = { rate: 20_000, latencyMs: 40 };
const now = 100_000;
/** A part `ms` into its response at `rate` bytes per ms. */
const part = (rate: number, ms: number) => ({ bytes: rate * ms, firstByteAt: now - ms });

test('near its end once the bytes left come within the lead at its own pace', () => {
	const lead = LEAD_LATENCIES * typical.latencyMs;
	// 20,000 bytes per ms: 800 KB are 40 ms away.
	expect(nearItsEnd(part(20_000, 500), 20_000 * lead, typical, now)).toBe(true);
	expect(nearItsEnd(part(20_000, 500), 20_000 * lead + 1, typical, now)).toBe(false);
	expect(nearItsEnd(part(20_000, 500), 0, typical, now)).toBe(true);
});

test('a slow part is judged at its own pace, not the usual one', () => {
	// 2,000 bytes per ms: 100 KB left is 50 ms away, more than the lead.
	expect(nearItsEnd(part(2_000, 500), 100_000, typical, now)).toBe(false);
	expect(nearItsEnd(part(20_000, 500), 100_000, typical, now)).toBe(true);
});

test('never near its end before its first byte, or with no pace to judge by', () => {
	expect(nearItsEnd({ bytes: 0, firstByteAt: undefined }, 1, typical, now)).toBe(false);
	expect(nearItsEnd(part(20_000, 500), 1, undefined, now)).toBe(false);
	// A part whose first byte came this very millisecond: a rate of its bytes over 1 ms.
	expect(nearItsEnd({ bytes: 64 * 1024, firstByteAt: now }, 8 * MiB, typical, now)).toBe(false);
});
