// --only=storage in full mode: the storage-chain rows replace their section of bench/results.md
// and their fields of bench/results.json, so a storage run of its own (an hour's work on this
// machine, not the whole benchmark) lands in the committed results as the full run would.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT } from './env';
import { renderStorage, type StorageRow, type Target } from './storage-report';

interface StorageRun {
	date: string;
	machine: { cpu: string; cores: number };
	seconds: number;
	loadAverage: { start: number[]; end: number[] };
	storage?: StorageRow[];
	targets: Target[];
}

const START = '<!-- storage-phase:start -->';
const END = '<!-- storage-phase:end -->';
const HEADING = '## Storage chain:';

/** How the rows were measured: when, by which command, on what, under which load. */
export function describeStorageRun(run: StorageRun, args: string[], n8nVersion: string): string {
	const at = run.date.slice(0, 16).replace('T', ' ');
	const load = (l: number[]) => l.join(', ');
	return `Measured ${at} UTC by \`npm run bench -- ${args.join(' ')}\` in ${run.seconds} s, in n8n ${n8nVersion}, on ${run.machine.cpu}, ${run.machine.cores} cores, shared with other work: load average (1, 5, 15 min) ${load(run.loadAverage.start)} at the start, ${load(run.loadAverage.end)} at the end. The other sections come from the earlier runs above. What the rows mean for users: [docs/storage-chain.md](../docs/storage-chain.md).`;
}

/** `dir`: bench/ (a test passes a scratch folder). */
export function writeStorageSection(
	run: StorageRun,
	measured: string,
	dir = join(ROOT, 'bench'),
): void {
	const targets = run.targets.filter((t) => /^(Storage chain|Copy to Storage)/.test(t.name));
	const jsonFile = join(dir, 'results.json');
	if (existsSync(jsonFile)) {
		const json = JSON.parse(readFileSync(jsonFile, 'utf8')) as Record<string, unknown>;
		Object.assign(json, {
			storage: run.storage,
			storageMeasured: measured,
			storageTargets: targets,
		});
		writeFileSync(jsonFile, `${JSON.stringify(json, null, '\t')}\n`);
	}
	const mdFile = join(dir, 'results.md');
	if (!existsSync(mdFile)) return;
	const text = readFileSync(mdFile, 'utf8');
	const section = `${START}\n${renderStorage(run.storage, measured, targets).join('\n')}\n${END}\n`;
	let a = text.indexOf(START);
	let b = text.indexOf(END);
	if (a >= 0 && b > a) b += END.length;
	else {
		// The first section written by hand, without markers: up to the next section or marker.
		a = text.indexOf(HEADING);
		const next = [text.indexOf('\n## ', a + 1), text.indexOf('\n<!-- ', a + 1)].filter(
			(i) => i > a,
		);
		b = a < 0 ? -1 : next.length ? Math.min(...next) : text.length;
	}
	const rest = (s: string) => s.replace(/^\n+/, '');
	writeFileSync(
		mdFile,
		a < 0
			? `${text.replace(/\n+$/, '')}\n\n${section}`
			: `${text.slice(0, a)}${section}\n${rest(text.slice(b))}`.replace(/\n+$/, '\n'),
	);
}
