// --only=wan in full mode: the WAN entries replace the same sizes' entries of
// bench/results/results.json, and the WAN section of bench/results/results.md is written again
// from them with their targets, so the WAN phase run on its own (it takes about an hour) lands
// in the committed results as the full run's would.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { RESULTS } from './env';
import { describeAloneRun } from './phase-section';
import { replaceSection } from './results-section';
import { renderWan } from './wan-render';
import { wanTargets, type WanEntry, type WanTarget } from './wan-report';

const START = '<!-- wan-phase:start -->';
const END = '<!-- wan-phase:end -->';
const HEADING = '## WAN: parallel connections';

/** How the entries were measured: when, by which command, on what, under which load. */
export const describeWanRun = (run: Parameters<typeof describeAloneRun>[0], args: string[]) =>
	describeAloneRun(run, args, 'the WAN phase alone');

/** Entries of this shape (interleaved rounds); older ones cannot be rendered and are dropped. */
const current = (e: unknown): e is WanEntry => Array.isArray((e as WanEntry).rounds);

/** `dir`: bench/results/ (a test passes a scratch folder). `measured`: when, by which command, under which load. */
export function writeWanSection(entries: WanEntry[], measured: string, dir = RESULTS): void {
	const jsonFile = join(dir, 'results.json');
	const json = existsSync(jsonFile)
		? (JSON.parse(readFileSync(jsonFile, 'utf8')) as Record<string, unknown>)
		: undefined;
	const fresh = new Set(entries.map((e) => e.label));
	const kept = ((json?.wan as unknown[] | undefined) ?? [])
		.filter(current)
		.filter((e) => !fresh.has(e.label));
	const merged = [...kept, ...entries].sort((a, b) => a.size - b.size);
	const targets: WanTarget[] = merged.flatMap((e) => wanTargets(e));
	// Which run measured each size, so a note never repeats an older note's own provenance.
	const by = (json?.wanMeasuredBy as Record<string, string> | undefined) ?? {};
	const fullRun = `the full run of ${String(json?.date ?? '')
		.slice(0, 16)
		.replace('T', ' ')} UTC.`;
	const earlier = (label: string) =>
		by[label] ?? (typeof json?.wanMeasured === 'string' ? json.wanMeasured : fullRun);
	const keptBy = kept.map((e) => [e.label, earlier(e.label)] as const);
	const note = kept.length
		? `${measured} It measured ${entries.map((e) => e.label).join(' and ')}; ${keptBy.map(([label, run]) => `${label} from an earlier run: ${run}`).join(' ')}`
		: measured;
	const wanMeasuredBy = Object.fromEntries([
		...keptBy,
		...entries.map((e) => [e.label, measured] as const),
	]);
	if (json) {
		Object.assign(json, { wan: merged, wanMeasured: note, wanMeasuredBy, wanTargets: targets });
		writeFileSync(jsonFile, `${JSON.stringify(json, null, '\t')}\n`);
	}
	replaceSection(
		join(dir, 'results.md'),
		{ start: START, end: END, heading: HEADING },
		renderWan(merged, note, targets),
	);
}
