// What every phase of npm run bench uses: the log line, rounding, the Partner credential, a
// node run that must have succeeded, and one transfer in a fresh process (download-worker.ts).
import { forkForJson } from './fork-json';
import type { NodeRun } from '../test/harness/run-node';
import { DEMO_PARTNER_KEY } from '../simulator';
import { GiB } from './measure';
import type { WorkerInput, WorkerResult } from './download-worker';
import { WINDOW_BYTES } from '../nodes/shared/download/segment-plan';

export const PARTNER_LIMIT = 300;
// The node's default is several parallel connections: n8n alone's growth in the same run plus
// twice the segments' memory window (the documented bound, measured by the memory phase).
export const RSS_ABOVE_N8N = 2 * WINDOW_BYTES;
export const MB = 1e6;

export const log = (message: string) => process.stdout.write(`[bench] ${message}\n`);
export { round } from './measure';
export const partnerCredential = (baseUrl: string, apiKey = DEMO_PARTNER_KEY) => ({
	gridBankPartnerApi: { apiKey, baseUrl },
});

export function ok(run: NodeRun, what: string): NodeRun {
	if (run.error)
		throw new Error(
			`${what}: the node failed: ${run.error.message} ${run.error.description ?? ''}`,
		);
	return run;
}

// ------------------------------------------------------------------------------- 1. download

/** One transfer in a fresh process (download-worker.ts): its own RSS baseline and peak. */
export const worker = (input: WorkerInput) =>
	forkForJson<WorkerResult>('download-worker.js', input, `download worker (${input.variant})`);

export const mbps = (r: WorkerResult) => r.size / MB / r.seconds;
export const cpuPerGiB = (r: WorkerResult) =>
	((r.cpuUserMs + r.cpuSystemMs) / 1000) * (GiB / r.size);
