// The hook between download.ts and segmented-body.ts: whether the first storage response allows
// a parallel transfer, and the segmented stream when it does.
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import type { Body } from '../transport/body-stream';
import { header } from '../transport/values';
import type { BinaryStream } from './ordered-output';
import type { ResumingBodyOptions } from './resuming-body';
import { segmentedBody } from './segmented-body';
import { planSegments } from './segment-plan';

export interface ParallelOptions {
	/** Parallel Connections (1 = today's single stream). */
	connections: number;
	/** Bytes that may wait for the consumer (segment-plan.ts; WINDOW_BYTES when not given). */
	windowBytes?: number;
	maxRetries: number;
	/** download.ts's GET of bytes [from, end): retries, a fresh URL when refused. */
	open: (from: number, end: number) => Promise<IN8nHttpFullResponse>;
	rethrowFatal: (error: unknown) => void;
	watch?: ResumingBodyOptions['watch'];
	meter?: ResumingBodyOptions['meter'];
}

/**
 * The file as parallel ranged segments, or undefined for the single stream: only when the first
 * response proves ranges work and states the size (206, bytes 0-(size-1)/size) and the file
 * spans more than one segment.
 */
export function parallelBody(
	first: IN8nHttpFullResponse,
	options: ParallelOptions,
): BinaryStream | undefined {
	if (first.statusCode !== 206 || options.connections < 2) return undefined;
	const range = /^bytes 0-(\d+)\/(\d+)$/.exec(header(first.headers, 'content-range') ?? '');
	if (!range || Number(range[1]) !== Number(range[2]) - 1) return undefined;
	const total = Number(range[2]);
	const plan = planSegments(total, options.connections, options.windowBytes);
	if (!plan) return undefined;
	return segmentedBody(first.body as Body, {
		plan,
		total,
		maxRetries: options.maxRetries,
		rethrowFatal: options.rethrowFatal,
		watch: options.watch,
		meter: options.meter,
		open: async (from, end) => {
			const response = await options.open(from, end);
			return {
				statusCode: response.statusCode,
				contentRange: header(response.headers, 'content-range'),
				body: response.body as Body,
			};
		},
	});
}
