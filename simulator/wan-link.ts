/**
 * A WAN-like link in front of storage (the `wanLink` switch): every TCP connection is capped at
 * `connectionBytesPerSecond`, each response waits one round trip before its first byte (two on a
 * new connection: the handshake), and an optional `linkBytesPerSecond` caps all connections
 * together. One machine can then show what parallel connections gain over the internet, and
 * where the link stops them. Not modelled: TCP slow start, loss, jitter.
 *
 * Pacing is a token bucket kept as "free from" times: sending n bytes books n / rate on the
 * connection, then on the link, and the writer sleeps until its slot (one timer per 64 KiB chunk
 * at most, no busy loop). A slot may lie up to BURST_MS in the past, so timers that fire late on
 * a busy machine are made up for instead of lowering the rate; the average stays the cap.
 */
import type { Socket } from 'node:net';

import type { ConnectionShape, UnevenLink } from './uneven-link';

export interface WanLinkOptions {
	/** Throughput cap of each TCP connection, bytes per second (e.g. 25e6). */
	connectionBytesPerSecond: number;
	/** Round-trip delay, ms (e.g. 40). */
	rttMs: number;
	/** Cap of the whole link, all connections together, bytes per second; default none. */
	linkBytesPerSecond?: number;
}

/** Bytes written per booking: small enough for smooth sharing, large enough to keep timers few. */
export const WAN_CHUNK = 64 * 1024;
/** How far behind its schedule a connection or the link may catch up at once. */
const BURST_MS = 20;

interface Connection extends ConnectionShape {
	freeAt: number;
	/** Bytes booked on it so far (a stall starts after `stall.afterBytes`). */
	booked: number;
}

export class WanLink {
	private linkFreeAt = 0;
	private readonly connections = new WeakMap<Socket, Connection>();
	/** Per-connection speeds and a stall (the unevenLink switch); undefined: every connection alike. */
	uneven: UnevenLink | undefined;

	constructor(readonly options: WanLinkOptions) {
		const { connectionBytesPerSecond, rttMs, linkBytesPerSecond } = options;
		if (!(connectionBytesPerSecond > 0))
			throw new Error('wanLink: connectionBytesPerSecond must be > 0');
		if (!(rttMs >= 0)) throw new Error('wanLink: rttMs must be >= 0');
		if (linkBytesPerSecond !== undefined && !(linkBytesPerSecond > 0))
			throw new Error('wanLink: linkBytesPerSecond must be > 0');
	}

	/** ms before a response on `socket` may start: one round trip, plus the handshake's on a new connection. */
	firstByteDelay(socket: Socket): number {
		const known = this.connections.get(socket);
		const delay = (known ? 1 : 2) * this.options.rttMs;
		// A response starts on schedule: no catching up on time the connection sat idle.
		if (known) known.freeAt = performance.now() + delay;
		else this.connections.set(socket, this.open(performance.now() + delay));
		return delay;
	}

	private open(freeAt: number): Connection {
		return { factor: 1, ...this.uneven?.next(), freeAt, booked: 0 };
	}

	/** Books `bytes` on the connection and the link; returns the ms to wait before writing them. */
	book(socket: Socket, bytes: number): number {
		const now = performance.now();
		let conn = this.connections.get(socket);
		if (!conn) this.connections.set(socket, (conn = this.open(0)));
		let at = Math.max(now - BURST_MS, conn.freeAt);
		if (conn.stall && conn.booked >= conn.stall.afterBytes) {
			// Nothing at all for a while, the connection held open.
			at = Math.max(at, now) + conn.stall.ms;
			conn.stall = undefined;
		}
		conn.booked += bytes;
		conn.freeAt = at + (bytes / (this.options.connectionBytesPerSecond * conn.factor)) * 1000;
		const link = this.options.linkBytesPerSecond;
		if (link) {
			// The link's own next slot, not this connection's: a slow or stalled connection's
			// future must not hold every other connection's bytes behind it.
			const slot = Math.max(now - BURST_MS, this.linkFreeAt);
			this.linkFreeAt = slot + (bytes / link) * 1000;
			at = Math.max(at, slot);
			conn.freeAt = Math.max(conn.freeAt, this.linkFreeAt);
		}
		return Math.max(0, at - now);
	}
}
