// Asking storage for a part's bytes (segmented-body.ts): the rest of a part from the byte it got
// to, its answer checked against the range asked for (segment-plan.ts's segmentAnswer); asked
// again when it broke or answered wrong, up to Max Retries per part.
import { type Body, TransferError } from '../transport/body-stream';
import { discard, type OrderedOutput, RangeIgnoredError } from './ordered-output';
import type { Part, SegmentedBodyOptions } from './segment-part';
import { segmentAnswer } from './segment-plan';
import type { SegmentWindow } from './segment-window';

interface Download {
	options: SegmentedBodyOptions;
	segments: SegmentWindow;
	output: OrderedOutput;
	/** Reads one response into a part; `askedEnd`: one past the last byte it was asked for. */
	read(part: Part, body: Body, askedEnd: number): void;
}

export function segmentRequests({ options, segments, output, read }: Download) {
	/** GETs the rest of a part, from the byte it got to. */
	function request(part: Part) {
		const from = part.start + part.got;
		// While one connection is enough, asked to the file's end: it may run on (extend).
		part.open = segments.allowed === 1 && !part.cut;
		const end = part.open ? options.total : part.end;
		part.requestedAt = Date.now();
		part.firstByteAt = part.lastByteAt = undefined;
		part.bytes = 0;
		// Asked again (a resume): it holds a connection until it is near its end once more.
		part.early = false;
		options.open(from, end).then(
			(response) => {
				// Handed over whole while it waited: another connection fetches these bytes.
				if (output.destroyed || part.done) return discard(response.body);
				const answer = segmentAnswer(
					response.statusCode,
					response.contentRange,
					from,
					end,
					options.total,
				);
				if (answer === 'ok') return read(part, response.body, end);
				discard(response.body);
				if (answer !== 'ignored') return retryOrFail(part, answer);
				output.fail(
					new RangeIgnoredError('storage ignored the byte range and sent the whole file'),
				);
			},
			(error) => part.done || output.fail(error),
		);
	}

	/** The part broke or was answered wrong: asked again, or the download fails when it may not be. */
	function retryOrFail(part: Part, problem: string) {
		if (part.resumes++ >= options.maxRetries)
			return output.fail(
				new TransferError(
					`${problem} (bytes ${part.start}-${part.end - 1}, ${part.resumes} tries)`,
				),
			);
		if (options.meter) options.meter.counts.resumes++;
		request(part);
	}

	return { request, retryOrFail };
}
