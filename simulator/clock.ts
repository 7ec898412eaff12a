/**
 * GridBank's clock, as the simulator runs it: offset from this machine's (a server whose clock
 * is wrong, or n8n's that is), and the Date header every response carries from it (or none).
 * Cleared with the other switches by FaultState.clear().
 */
import type { ServerResponse } from 'node:http';

export class ClockFaults {
	/** ms added to the injected clock: expires_at, URL expiry, Date headers, purchase times, rate windows. */
	offsetMs = 0;
	/** false: responses carry no Date header (a server or proxy that strips it). */
	dateHeader = true;

	clear(): void {
		this.offsetMs = 0;
		this.dateHeader = true;
	}
}

/** The response's Date header from GridBank's own clock (as a real server's is), or none. */
export function stampDate(res: ServerResponse, nowMs: number, clock: ClockFaults): void {
	if (!clock.dateHeader) res.sendDate = false;
	else res.setHeader('Date', new Date(nowMs).toUTCString());
}
