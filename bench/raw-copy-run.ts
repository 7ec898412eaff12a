// The storage phase's raw-copy row: raw-copy.ts in a fresh process, with the copy's own
// connections, segment size, part size and parts in flight, so "copy / raw copy" compares the
// node with the most this machine gives on the same path in the same run.

import { forkForJson } from './fork-json';
import { DEFAULT_CONNECTIONS } from '../nodes/shared/read-parameters';
import { COPY_WINDOW_BYTES, planSegments } from '../nodes/shared/download/segment-plan';
import { planParts } from '../nodes/shared/storage/part-plan';
import type { RawCopyInput, RawCopyResult } from './raw-copy';

export type RawCopyTarget = Pick<
	RawCopyInput,
	'baseUrl' | 'videoKey' | 'size' | 's3' | 'bucket' | 'key'
>;

/** What the copy itself would use for a file of `size` at the default connection count. */
export function copyShape(size: number) {
	const segments = planSegments(size, DEFAULT_CONNECTIONS, COPY_WINDOW_BYTES);
	const parts = planParts(size, DEFAULT_CONNECTIONS);
	return {
		connections: segments?.connections ?? 1,
		segmentBytes: segments?.segmentBytes ?? size,
		partBytes: parts.partBytes,
		queueSize: parts.inFlight,
	};
}

export function runRawCopy(target: RawCopyTarget): Promise<RawCopyResult> {
	// Only the store's address and keys: the server's handle also carries its request log, which
	// after a 4 GiB copy no longer fits one command-line argument (spawn E2BIG).
	const { endpoint, region, accessKeyId, secretAccessKey } = target.s3;
	const input: RawCopyInput = {
		...target,
		s3: { endpoint, region, accessKeyId, secretAccessKey },
		...copyShape(target.size),
	};
	// At 2 MB/s, plus two minutes: the raw copy runs at 25-100 MB/s; one full run's raw copy
	// (1 GiB, WAN) stopped with its upload idle and a connection's bytes unread, and held the run.
	const timeoutMs = (target.size / 2e6 + 120) * 1000;
	return forkForJson<RawCopyResult>('raw-copy.js', input, 'raw copy', { timeoutMs });
}

/** The raw copy as the phase's rows take an n8n run: its time as the 'Store' node's, no n8n memory. */
export async function rawCopyRun(target: RawCopyTarget): Promise<{
	ok: boolean;
	code: number;
	runData: Record<string, Array<{ executionTime?: number }>>;
	error?: { message: string };
}> {
	try {
		const result = await runRawCopy(target);
		return {
			ok: true,
			code: 0,
			runData: { Store: [{ executionTime: result.seconds * 1000 }] },
		};
	} catch (error) {
		return {
			ok: false,
			code: 1,
			runData: {},
			error: { message: error instanceof Error ? error.message : String(error) },
		};
	}
}
