// Keeps each key under its per-minute allowance inside this n8n process, shared by every
// execution and item, so a long listing is paced instead of earning 429s.
import { sleep } from 'n8n-workflow';
import { createHash } from 'node:crypto';

const WINDOW_MS = 60_000;
/** Slack for the server counting arrival rather than send times. */
const MARGIN_MS = 250;

const sent = new Map<string, number[]>();
let windowMs = WINDOW_MS;

/** Keys are held only as a hash, so no structure in memory carries the secret. */
const fingerprint = (key: string) => createHash('sha256').update(key).digest('hex');

/** Waits until one more request on this key stays within `perMinute`, then books it. */
export async function pace(key: string, perMinute: number, signal?: AbortSignal): Promise<void> {
	const id = fingerprint(key);
	const times = sent.get(id) ?? [];
	sent.set(id, times);
	for (;;) {
		const now = Date.now();
		while (times.length && times[0] <= now - windowMs - MARGIN_MS) times.shift();
		if (times.length < perMinute) {
			times.push(now);
			return;
		}
		await sleep(times[0] + windowMs + MARGIN_MS - now + 1, signal);
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
