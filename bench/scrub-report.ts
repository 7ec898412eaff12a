// The scrub phase's figures (scrub-phase.ts) as a section of bench/results/results.md.
import { join } from 'node:path';

import { RESULTS } from './env';
import { MiB } from './measure';
import { replaceSection, row } from './results-section';

export interface ScrubResult {
	bodyBytes: number;
	/** ms for scrubText over the whole text, best of the rounds. */
	wholeTextMs: number;
	/** ms for errorExcerpt over the parsed body (what one try of an error scrubs), best of the rounds. */
	excerptMs: number;
	/** ms, the longest event-loop block while the node met the 500 four times. */
	longestBlockMs: number;
	/** ms, the longest single 256 KiB slice of a 2xx body's scrub (best round). */
	sliceMs: number;
	/** Engine runs: the least disturbed of this many counts. */
	rounds: number;
	/** ms, the longest event-loop block while a 200 page carried the hostile text as a title. */
	okBlockMs: number;
	tries: number;
	runSeconds: number;
	loadAverage: number[];
}

export function renderScrub(s: ScrubResult): string[] {
	return [
		'## Scrubbing a hostile answer',
		'',
		`An API error body of ${s.bodyBytes / MiB} MiB built to make the scrubber work (\`simulator/hostile-body.ts\`: the key's secret in 11-character pieces as itself, hex with separators, percent-encoded, HTML entities, base64, split by spaces and soft breaks; the whole key once at the end). Measured by \`npm run bench -- --only=scrub\`; load average (1, 5, 15 min) at the end: ${s.loadAverage.join(', ')} on 2 cores shared with other work. An event-loop block is the longest delay \`monitorEventLoopDelay\` saw, less its 10 ms resolution, of any cause (reading and parsing the 8 MiB answer included): scrubbing's part is at most that. Target: no block over 50 ms. Each engine run is the least disturbed of ${s.rounds}.`,
		'',
		row(['What', 'Time']),
		row(['---', '---']),
		row([
			'`scrubText` over the whole 8 MiB text in one go (one block; a 2xx body is scrubbed in slices instead, below)',
			`${s.wholeTextMs} ms`,
		]),
		row([
			'the longest single 256 KiB slice of that text (a 2xx body is scrubbed slice by slice, the event loop running between)',
			`${s.sliceMs} ms`,
		]),
		row([
			'`errorExcerpt` over the parsed error body (what each try of an error scrubs now)',
			`${s.excerptMs} ms`,
		]),
		row([
			`Longest event-loop block while the Partner node met that 500 ${s.tries} times (Max Retries ${s.tries - 1}; n8n's engine, monitorEventLoopDelay at 10 ms)`,
			`${s.longestBlockMs} ms`,
		]),
		row([
			'Longest event-loop block while a 200 listing carried the hostile text (8 MiB less 64 KiB) as a video title, every string of the page scrubbed in 256 KiB slices',
			`${s.okBlockMs} ms`,
		]),
		row(["Wall time of the 500 run (mostly the retries' backoff)", `${s.runSeconds} s`]),
		'',
	];
}

const START = '<!-- scrub-phase:start -->';
const END = '<!-- scrub-phase:end -->';

/**
 * --only=scrub: the section put into bench/results/results.md in place of an older one, marked
 * or not (a full run writes it without marks: appending beside it left two).
 */
export function writeScrubSection(s: ScrubResult, dir = RESULTS): void {
	replaceSection(
		join(dir, 'results.md'),
		{ start: START, end: END, heading: '## Scrubbing a hostile answer' },
		renderScrub(s),
	);
}
