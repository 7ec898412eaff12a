// Polls of one trigger never overlap. n8n's poll timer calls poll() on its schedule whether or
// not the last poll has finished, and a poll with downloads (or waiting out a rate limit) can
// outlast the interval: two polls would read the same saved state and emit the same videos.
// A tick that comes while this trigger's poll is still running in this process returns at once
// with nothing; the next tick catches up from the state the running poll saves. "Fetch Test
// Event" (manual mode) saves nothing, so it may run beside the live trigger.
import type { IPollFunctions } from 'n8n-workflow';

const running = new Set<string>();

/** Runs `poll` unless this workflow's trigger node is already polling; then null, and no request. */
export async function alone<T>(ctx: IPollFunctions, poll: () => Promise<T>): Promise<T | null> {
	const node = ctx.getNode();
	const key = `${ctx.getWorkflow().id ?? ''}\u0000${node.id ?? node.name}`;
	if (running.has(key)) return null;
	running.add(key);
	try {
		return await poll();
	} finally {
		running.delete(key);
	}
}

/** A trigger's poll(): "Fetch Test Event" saves nothing and may run beside the live trigger. */
export async function pollEntry<T>(ctx: IPollFunctions, poll: (ctx: IPollFunctions) => Promise<T>) {
	if (ctx.getMode() === 'manual') return await poll(ctx);
	return await alone(ctx, async () => await poll(ctx));
}
