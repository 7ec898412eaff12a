// Keeps each key under its per-minute allowance inside this n8n process, shared by every
// execution and item, so a long listing is paced instead of earning 429s.
import { createHash } from 'node:crypto';

import { sleep } from './wait';

const WINDOW_MS = 60_000;
/** Slack on top of the window, for timer and clock granularity. */
const MARGIN_MS = 250;

/**
 * A booked request. It holds its slot from the moment it is sent until its response (or
 * failure) is in, and from then on is dated by that moment: GridBank counts arrival times,
 * which lie between the two, so a request that was slow to leave this process (event-loop
 * lag, connection setup under load) is never dated earlier than the server dates it.
 */
interface Booking {
	at: number;
	open: boolean;
}

const sent = new Map<string, Booking[]>();
let windowMs = WINDOW_MS;

/** Keys are held only as a hash, so no structure in memory carries the secret. */
const fingerprint = (key: string) => createHash('sha256').update(key).digest('hex');

/** How often a caller waiting on requests that are all still in flight looks again. */
const IN_FLIGHT_POLL_MS = 50;

/**
 * Waits until one more request on this key stays within `perMinute`, then books it. Call the
 * returned function once the request's response or failure is in.
 */
export async function pace(key: string, perMinute: number, signal?: AbortSignal): Promise<() => void> {
	const id = fingerprint(key);
	for (;;) {
		const now = Date.now();
		const bookings = (sent.get(id) ?? []).filter((b) => b.open || b.at > now - windowMs - MARGIN_MS);
		sent.set(id, bookings);
		if (bookings.length < perMinute) {
			const booking: Booking = { at: now, open: true };
			bookings.push(booking);
			return () => {
				booking.at = Math.max(booking.at, Date.now());
				booking.open = false;
			};
		}
		let oldest = Infinity;
		for (const b of bookings) if (!b.open && b.at < oldest) oldest = b.at;
		await sleep(oldest === Infinity ? IN_FLIGHT_POLL_MS : oldest + windowMs + MARGIN_MS - now + 1, signal);
	}
}

/**
 * For the benchmark only, which runs GridBank's per-minute limit on a shorter clock:
 * the window both sides count in. Not reachable from a workflow.
 */
export function setPacingWindow(ms: number): void {
	windowMs = ms;
	sent.clear();
}
