// The results' shape and their markdown rendering (bench/results/results.md and the table in CONTRIBUTING.md).
import type { Machine } from './machine';
import { type DownloadEntry, renderDownload } from './download-render';
import { renderMemory, type MemoryEntry } from './memory-phase';
import { renderWan } from './wan-render';
import type { WanEntry } from './wan-report';
import { renderStorage, type StorageRow } from './storage-report';
import { renderScrub, type ScrubResult } from './scrub-report';
import { row } from './results-section';

export interface Target {
	name: string;
	target: string;
	value: string;
	met: boolean;
}

export interface Results {
	mode: 'full' | 'short';
	date: string;
	machine: Machine;
	config: Record<string, unknown>;
	download: DownloadEntry[];
	paging: Array<{
		api: 'Partner' | 'Enterprise';
		case: string;
		n: number;
		items: number;
		requests: number;
		expectedRequests: number;
		ms: number;
		msPerRequest: number;
	}>;
	pacing?: {
		timeScaling: string;
		workflows: number;
		requests: number;
		plannedRequests: number;
		status429: number;
		seconds: number;
		meanPerWindow: number;
		busiestWindow: number;
		shareOfLimit: number;
	};
	overhead?: {
		items: number;
		rounds: number;
		simulatorMsPerRequest: number;
		nodeMsPerItem: number;
		/** A minimal node making the same authenticated GET per item: n8n's own cost. */
		n8nFloorMsPerItem: number;
		overheadMsPerItem: number;
		n8nOverheadMsPerItem: number;
		oursAboveN8nMsPerItem: number;
		allRounds: {
			simulatorMsPerRequest: number[];
			nodeMsPerItem: number[];
			n8nFloorMsPerItem: number[];
		};
		pacingBound: boolean;
	};
	/** Phase 5: parallel connections over a WAN-like link. */
	wan?: WanEntry[];
	/** Phase 6: peak RSS growth at every Parallel Connections setting, loopback and WAN. */
	memory?: MemoryEntry[];
	/** Phase 7: the storage chain in a real n8n (storage-phase.ts). */
	storage?: StorageRow[];
	/** When the storage rows come from a run of their own (--only=storage): when and how. */
	storageMeasured?: string;
	/** That run's storage targets, shown in its section (the Targets table above is the full run's). */
	storageTargets?: Target[];
	targets: Target[];
	seconds: number;
	/** 1, 5 and 15 minute load averages when the run started and ended: others share this machine. */
	loadAverage: { start: number[]; end: number[] };
	/** Phase 8: scrubbing a hostile 8 MiB answer (scrub-phase.ts). */
	scrub?: ScrubResult;
}

/** The targets table alone (CONTRIBUTING.md's Performance section repeats it). */
export function targetsTable(results: Pick<Results, 'targets'>): string {
	return [
		row(['Measure', 'Result', 'Target', 'Met']),
		row(['---', '---', '---', '---']),
		...results.targets.map((t) => row([t.name, t.value, t.target, t.met ? 'yes' : '**no**'])),
	].join('\n');
}

export function machineLine(results: Results): string {
	const m = results.machine;
	return `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, Node ${m.node}, ${m.os}, disk ${m.disk}`;
}

export function renderMarkdown(results: Results): string {
	const lines: string[] = [
		`# Benchmark results (${results.mode} mode)`,
		'',
		`Measured ${results.date.slice(0, 16).replace('T', ' ')} UTC by \`npm run bench${results.mode === 'short' ? ' -- --short' : ''}\` in ${results.seconds} s.`,
		'',
		`Machine: ${machineLine(results)}.`,
		`Load average (1, 5, 15 min) at the start ${results.loadAverage.start.join(', ')}, at the end ${results.loadAverage.end.join(', ')}.`,
		'The nodes ran in n8n-core 2.41 (WorkflowExecute, filesystem binary data); the GridBank simulator ran in a child process.',
		'',
		'## Targets',
		'',
		targetsTable(results),
		'',
		...renderDownload(results),
		'## Paging: Return All',
		'',
		row(['API', 'Case', 'Items', 'Requests', 'Expected', 'Wall time', 'Per request']),
		row(['---', '---', '---', '---', '---', '---', '---']),
		...results.paging.map((p) =>
			row([
				p.api,
				p.case,
				p.items.toLocaleString('en'),
				p.requests,
				p.expectedRequests,
				`${p.ms} ms`,
				`${p.msPerRequest} ms`,
			]),
		),
		'',
	];
	if (results.pacing) {
		const p = results.pacing;
		lines.push(
			'## Pacing: three workflows at once on one Partner key',
			'',
			`Time-scaled: ${p.timeScaling}. One workflow lists all licences (Return All) for each of its input items, two ask for download URLs over many items; all three share the key.`,
			'',
			row([
				'Requests',
				'429 responses',
				'Wall time',
				'Mean per window',
				'Busiest window',
				'Share of the limit',
			]),
			row(['---', '---', '---', '---', '---', '---']),
			row([
				p.requests,
				p.status429,
				`${p.seconds} s`,
				p.meanPerWindow,
				p.busiestWindow,
				`${p.shareOfLimit} %`,
			]),
			'',
			"Share of the limit: the mean number of requests (by arrival at the simulator) in a window of the limit's length, over every window between the first and the last request, divided by 300. The pacer dates each request by the moment its response arrived (never earlier than GridBank counts it) and keeps 250 ms of slack per window: together about 4 % of a 6 s window (0.4 % of the real 60 s one).",
			'',
		);
	}
	if (results.overhead) {
		const o = results.overhead;
		lines.push(
			'## Overhead: Get Download URL over many items',
			'',
			row([
				'Items',
				'Ours, per item',
				'n8n alone, per item',
				'Simulator alone, per request',
				'Overhead per item (ours − simulator)',
				"n8n's part (n8n alone − simulator)",
				'Ours above n8n alone',
			]),
			row(['---', '---', '---', '---', '---', '---', '---']),
			row([
				o.items.toLocaleString('en'),
				`${o.nodeMsPerItem} ms`,
				`${o.n8nFloorMsPerItem} ms`,
				`${o.simulatorMsPerRequest} ms`,
				`${o.overheadMsPerItem} ms`,
				`${o.n8nOverheadMsPerItem} ms`,
				`${o.oursAboveN8nMsPerItem} ms`,
			]),
			'',
			`Ours: the whole workflow (Manual Trigger → items → GridBank Partner, Get Download URL, the video key an expression \`{{ $json.videoKey }}\`) divided by the item count. n8n alone: the same workflow with a minimal node that reads the same expression and makes the same GET through \`httpRequestWithAuthentication\` with the same credential, nothing else. Simulator alone: the same requests sent by undici over one keep-alive connection, one at a time. Best of ${o.rounds} rounds each, in the same run. No rate limit in this phase${o.pacingBound ? " (note: the pacer's ceiling of 300 per 251 ms was reached)" : ''}.`,
			'',
		);
	}
	lines.push(...renderWan(results.wan));
	lines.push(...renderMemory(results.memory));
	lines.push(...renderStorage(results.storage, results.storageMeasured, results.storageTargets));
	if (results.scrub) lines.push(...renderScrub(results.scrub));
	return `${lines.join('\n')}\n`;
}
