/**
 * Contract: the WanLink's bookings (simulator/wan-link.ts) with a link cap and uneven
 * connections. A stalled or slow connection waits for itself alone: the other connections keep
 * the link's share. Found by the bench (a 10 s stall held every other connection 10 s).
 */
import type { Socket } from 'node:net';

import { UnevenLink } from '../../simulator/uneven-link';
import { WanLink, WAN_CHUNK } from '../../simulator/wan-link';

const MB = 1e6;
const socket = () => ({}) as Socket; // only a key of the link's WeakMap

test('a stalled connection waits out its stall; the next connection is not held behind it', () => {
	const link = new WanLink({
		connectionBytesPerSecond: 25 * MB,
		rttMs: 0,
		linkBytesPerSecond: 100 * MB,
	});
	link.uneven = new UnevenLink({ stall: { connection: 1, afterBytes: 0, ms: 10_000 } });
	const [stalled, other] = [socket(), socket()];
	link.firstByteDelay(stalled);
	link.firstByteDelay(other);
	expect(link.book(stalled, WAN_CHUNK)).toBeGreaterThanOrEqual(9_000);
	// One 64 KiB chunk on a fresh connection: well under a second, whatever the machine's load.
	expect(link.book(other, WAN_CHUNK)).toBeLessThan(1_000);
});

test('a slow connection runs at its own pace while the link still caps the sum', () => {
	const link = new WanLink({
		connectionBytesPerSecond: 25 * MB,
		rttMs: 0,
		linkBytesPerSecond: 100 * MB,
	});
	link.uneven = new UnevenLink({ slow: { every: 1, first: 1, factor: 0.01 } });
	const slow = socket();
	link.firstByteDelay(slow);
	link.uneven = undefined;
	const fast = socket();
	link.firstByteDelay(fast);
	// 40 chunks on the slow connection book 40 × 262 ms of its own time, ahead of any other.
	let slowWait = 0;
	for (let i = 0; i < 40; i++) slowWait = link.book(slow, WAN_CHUNK);
	expect(slowWait).toBeGreaterThan(5_000);
	expect(link.book(fast, WAN_CHUNK)).toBeLessThan(1_000);
	// The link's cap holds for everything booked: 100 chunks more at 100 MB/s take ≥ 60 ms.
	let fastWait = 0;
	for (let i = 0; i < 100; i++) fastWait = link.book(fast, WAN_CHUNK);
	expect(fastWait).toBeGreaterThanOrEqual(((100 * WAN_CHUNK) / (100 * MB)) * 1000 - 25);
});
