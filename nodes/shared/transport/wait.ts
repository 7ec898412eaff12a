// The one wait of the transport (retry backoff, pacing, storage retries). n8n's `sleep` honours
// an abort signal only from n8n 2.x on; on n8n 1.x it ignores it, so a cancelled execution would
// sit out a backoff or rate-limit wait of up to two minutes. Racing it against the signal here
// ends the wait promptly on every engine. Named `sleep` so callers keep their call sites.
import { sleep as n8nSleep } from 'n8n-workflow';

/** The error a cancelled wait rejects with: the signal's own reason, as n8n's sleep does. */
function abortError(signal: AbortSignal): Error {
	const reason: unknown = signal.reason;
	return reason instanceof Error
		? reason
		: new Error(String(reason ?? 'The operation was aborted'));
}

/** Resolves after `ms`, or rejects with the abort reason as soon as `signal` fires. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	if (!signal) return await n8nSleep(ms);
	if (signal.aborted) throw abortError(signal);
	let onAbort = () => {};
	const aborted = new Promise<never>((_, reject) => {
		onAbort = () => reject(abortError(signal));
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		// n8n 1.x's timer runs on after a cancel; it resolves into nothing.
		await Promise.race([n8nSleep(ms, signal), aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}
