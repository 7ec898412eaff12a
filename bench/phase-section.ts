// --only=download or --only=memory in full mode: the phase's entries replace their field of
// bench/results/results.json, and its section of bench/results/results.md is written again with
// how it was measured and its own targets, so a download-path change can be recorded without the
// whole benchmark (2.5 hours). The Targets table at the top stays the full run's, as it does for
// a WAN or storage run of its own.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { renderDownload } from './download-render';
import { RESULTS } from './env';
import { renderMemory } from './memory-phase';
import { type Results, targetsTable } from './report';
import { replaceSection } from './results-section';

/** Each phase's renderer, the one a full run uses; its first line is the section's heading. */
const PHASES = {
	download: (r: Pick<Results, 'download' | 'memory'>) => renderDownload(r),
	memory: (r: Pick<Results, 'download' | 'memory'>) => renderMemory(r.memory),
} as const;

export type AlonePhase = keyof typeof PHASES;

/** How a phase run alone was measured: when, by which command, on what, under which load. */
export function describeAloneRun(
	run: Pick<Results, 'date' | 'seconds' | 'machine' | 'loadAverage'>,
	args: string[],
	what: string,
): string {
	const load = (l: number[]) => l.join(', ');
	return `Measured ${run.date.slice(0, 16).replace('T', ' ')} UTC by \`npm run bench -- ${args.join(' ')}\` (${what}) in ${run.seconds} s on ${run.machine.cpu}, ${run.machine.cores} cores: load average (1, 5, 15 min) ${load(run.loadAverage.start)} at the start, ${load(run.loadAverage.end)} at the end.`;
}

/**
 * The phase's section: its heading, how it was measured, its targets, then the tables a full run
 * writes. `dir`: bench/results/ (a test passes a scratch folder).
 */
export function writeAlonePhaseSection(
	phase: AlonePhase,
	results: Pick<Results, 'download' | 'memory' | 'targets'>,
	measured: string,
	dir = RESULTS,
): void {
	const { targets } = results;
	const [heading, ...body] = PHASES[phase](results);
	if (!heading) return;
	const jsonFile = join(dir, 'results.json');
	if (existsSync(jsonFile)) {
		const json = JSON.parse(readFileSync(jsonFile, 'utf8')) as Record<string, unknown>;
		Object.assign(json, {
			[phase]: results[phase],
			[`${phase}Measured`]: measured,
			[`${phase}Targets`]: targets,
		});
		writeFileSync(jsonFile, `${JSON.stringify(json, null, '\t')}\n`);
	}
	replaceSection(
		join(dir, 'results.md'),
		{ start: `<!-- ${phase}-phase:start -->`, end: `<!-- ${phase}-phase:end -->`, heading },
		[
			heading,
			'',
			`${measured} This section alone; the Targets table at the top is the full run's.`,
			'',
			targetsTable(results),
			...body,
		],
	);
}
