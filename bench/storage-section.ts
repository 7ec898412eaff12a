// --only=storage in full mode: the storage-chain rows replace the same rows of bench/results/results.json
// and the section of bench/results/results.md is written again from them, so a storage run of its own
// (not the whole benchmark) lands in the committed results as the full run's would.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { RESULTS } from './env';
import { replaceSection } from './results-section';
import { renderStorage, storageTargets, type StorageRow } from './storage-report';

interface StorageRun {
	date: string;
	machine: { cpu: string; cores: number };
	seconds: number;
	loadAverage: { start: number[]; end: number[] };
	storage?: StorageRow[];
}

const START = '<!-- storage-phase:start -->';
const END = '<!-- storage-phase:end -->';
const HEADING = '## Storage chain:';

/** How the rows were measured: when, by which command, on what, under which load. */
export function describeStorageRun(run: StorageRun, args: string[], n8nVersion: string): string {
	const at = run.date.slice(0, 16).replace('T', ' ');
	const load = (l: number[]) => l.join(', ');
	return `Measured ${at} UTC by \`npm run bench -- ${args.join(' ')}\` in ${run.seconds} s, in n8n ${n8nVersion}, on ${run.machine.cpu}, ${run.machine.cores} cores, shared with other work: load average (1, 5, 15 min) ${load(run.loadAverage.start)} at the start, ${load(run.loadAverage.end)} at the end.`;
}

const TAIL =
	'The other sections come from the earlier runs above. What the rows mean for users: [docs/storage-chain.md](../docs/storage-chain.md).';
const keyOf = (r: StorageRow) => `${r.mode} ${r.label} ${r.link ?? 'loopback'} ${r.node}`;

/**
 * The run's rows in place of the same rows (mode, size, link, node) of the committed results,
 * the others kept with the run that measured them named: a narrowed run (--storage-links,
 * --storage-nodes) updates its rows without dropping the rest.
 */
function merge(
	old: { storage?: StorageRow[]; storageMeasured?: string },
	rows: StorageRow[],
	measured: string,
): { rows: StorageRow[]; measured: string } {
	const fresh = new Map(rows.map((r) => [keyOf(r), r]));
	const merged = (old.storage ?? []).map(
		(r) => fresh.get(keyOf(r)) ?? { ...r, link: r.link ?? 'loopback' },
	);
	const seen = new Set(merged.map(keyOf));
	// A row measured twice in one run (plans made the same size) counts once: its last measure.
	merged.push(...[...fresh.values()].filter((r) => !seen.has(keyOf(r))));
	const kept = merged.filter((r) => !fresh.has(keyOf(r)));
	if (!kept.length || !old.storageMeasured)
		return { rows: merged, measured: `${measured} ${TAIL}` };
	return {
		rows: merged,
		measured: `${measured} That run measured the rows ${[...fresh.keys()].join('; ')}. The other rows are from an earlier storage run: ${old.storageMeasured}`,
	};
}

/** `dir`: bench/results/ (a test passes a scratch folder). */
export function writeStorageSection(run: StorageRun, runMeasured: string, dir = RESULTS): void {
	const jsonFile = join(dir, 'results.json');
	const json = existsSync(jsonFile)
		? (JSON.parse(readFileSync(jsonFile, 'utf8')) as Record<string, unknown>)
		: undefined;
	const { rows, measured } = merge(json ?? {}, run.storage ?? [], runMeasured);
	const targets = storageTargets(rows);
	if (json) {
		Object.assign(json, { storage: rows, storageMeasured: measured, storageTargets: targets });
		writeFileSync(jsonFile, `${JSON.stringify(json, null, '\t')}\n`);
	}
	replaceSection(
		join(dir, 'results.md'),
		{ start: START, end: END, heading: HEADING },
		renderStorage(rows, measured, targets),
	);
}
