// Keeps each key under its per-minute allowance, shared by every execution and item of this
// n8n process, so a long listing is paced instead of earning 429s. When the server reports
// what is left of the account's allowance (X-RateLimit-*), that count, which includes every
// other process on the account (queue-mode workers), decides; this process's own count is the
// fallback for a server that does not say.
import { createHash } from 'node:crypto';
import type { INode } from 'n8n-workflow';

import { ServerAllowance } from './server-allowance';
import { sleep } from './wait';
import {
	newWaitTally,
	PACED_WAIT_WINDOWS,
	PacedTooLong,
	pacedTooLongError,
	type WaitTally,
} from './wait-budget';

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
	sentAt: number;
	open: boolean;
	/** The server's allowance counted it (see ServerAllowance.answered): only such a slot may be reused. */
	counted: boolean;
}

const sent = new Map<string, Booking[]>();
const servers = new Map<string, ServerAllowance>();

/** Keys are held only as a hash, so no structure in memory carries the secret. */
const fingerprint = (key: string) => createHash('sha256').update(key).digest('hex');

/** How often a caller waiting on requests that are all still in flight looks again. */
const IN_FLIGHT_POLL_MS = 50;

/** A key's allowance, as the API profile states it: so many requests in any one rate window. */
export interface Rate {
	requestsPerWindow?: number;
	rateWindowMs: number;
}

/** Called once a request's response (with its headers) or failure (no headers) is in. */
export type Release = (headers?: Record<string, string | string[] | undefined>) => void;

/**
 * Waits until one more request on this key stays within the server's reported allowance, or
 * without one within `rate` in this process, then books it. Call the returned function
 * once the request's response (pass its headers) or failure is in. The waits count against
 * `tally` (the item's; this request's alone without one): past PACED_WAIT_WINDOWS windows in
 * total it throws PacedTooLong.
 */
export async function pace(
	key: string,
	{ requestsPerWindow: requests = Infinity, rateWindowMs: windowMs }: Rate,
	signal?: AbortSignal,
	tally: WaitTally = newWaitTally(),
): Promise<Release> {
	// One account counted on two clocks would be two accounts: the window is part of the id.
	const id = `${fingerprint(key)}/${windowMs}`;
	let server = servers.get(id);
	if (!server) servers.set(id, (server = new ServerAllowance(windowMs)));
	const wait = async (ms: number) => {
		const bound = PACED_WAIT_WINDOWS * windowMs;
		if (tally.pacedMs + ms > bound) throw new PacedTooLong(bound);
		const started = Date.now();
		try {
			await sleep(ms, signal);
		} finally {
			tally.pacedMs += Date.now() - started;
		}
	};
	for (;;) {
		const now = Date.now();
		// A request of ours leaving the window is news of a free slot, if it left after the server's
		// last word was said: it was sent less than a window before that answer came (before pruning).
		const seenAt = server.seenAt ?? -Infinity;
		let ownSlotFreeAt = Infinity;
		for (const b of sent.get(id) ?? [])
			if (!b.open && b.counted && b.sentAt + windowMs > seenAt)
				ownSlotFreeAt = Math.min(ownSlotFreeAt, b.at + windowMs + MARGIN_MS);
		const bookings = (sent.get(id) ?? []).filter(
			(b) => b.open || b.at > now - windowMs - MARGIN_MS,
		);
		sent.set(id, bookings);
		const serverWait = server.take(now, windowMs, ownSlotFreeAt);
		if (serverWait !== undefined && serverWait > 0) {
			await wait(Math.min(serverWait, windowMs) + 1);
			continue;
		}
		if (serverWait === 0 || bookings.length < requests) {
			if (serverWait === undefined) server.sentUnpaced();
			const booking: Booking = { at: now, sentAt: now, open: true, counted: false };
			bookings.push(booking);
			const answeredBy = server;
			return (headers) => {
				booking.at = Math.max(booking.at, Date.now());
				booking.open = false;
				booking.counted = answeredBy.answered(headers);
			};
		}
		let oldest = Infinity;
		for (const b of bookings) if (!b.open && b.at < oldest) oldest = b.at;
		await wait(oldest === Infinity ? IN_FLIGHT_POLL_MS : oldest + windowMs + MARGIN_MS - now + 1);
	}
}

/** pace() for one API request of an item: past the item's wait bound, the error a user sees. */
export async function paceRequest(
	node: INode,
	itemIndex: number,
	...args: Parameters<typeof pace>
): Promise<Release> {
	try {
		return await pace(...args);
	} catch (error) {
		// A cancel goes on as it came.
		throw error instanceof PacedTooLong ? pacedTooLongError(node, error, itemIndex) : error;
	}
}
