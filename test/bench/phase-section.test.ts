// --only=download and --only=memory rewrite their own section of bench/results/results.md (a full
// run writes it without marks) and their fields of results.json, leaving every other section and
// the full run's Targets table as they were.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { writeAlonePhaseSection } from '../../bench/phase-section';
import type { MemoryEntry } from '../../bench/memory-phase';
import type { DownloadSummary } from '../../bench/download-render';
import type { Results } from '../../bench/report';

const summary = (mbPerSecond: number): DownloadSummary => ({
	mbPerSecond,
	cpuSecondsPerGiB: 6,
	rssGrowthMiB: 60,
	rssGrowthMedianMiB: 50,
	arrayBuffersPeakMiB: 64,
	rounds: [],
});

const download = (ours: number): Results['download'] => [
	{
		size: 1024 ** 3,
		label: '1 GiB',
		ours: summary(ours),
		n8n: summary(250),
		raw: summary(300),
		ratio: ours / 300,
		ratioToN8n: ours / 250,
		pairedRatioMedian: ours / 300,
		pairedRatioToN8nMedian: ours / 250,
		rssSource: 'VmHWM',
	},
];

const memory: MemoryEntry[] = [
	{
		link: 'loopback',
		size: 1024 ** 3,
		label: '1 GiB',
		rounds: 3,
		variants: [
			{
				connections: 0,
				growthMaxMiB: 70,
				growthMedianMiB: 60,
				peakMiB: 240,
				arrayBuffersPeakMiB: 66,
				ratioToN8nMedian: 1,
				mbPerSecond: 250,
				rounds: [],
			},
		],
	},
];

const target = (name: string, value: string) => ({ name, value, target: '≥ 0.9', met: false });

const FULL_RUN = [
	'# Benchmark results (full mode)',
	'',
	'## Targets',
	'',
	'| Download 1 GiB: ours / raw | 0.5 (the full run) | ≥ 0.9 | **no** |',
	'',
	'## Download: Get Download URL with Download File',
	'',
	'old download table',
	'',
	'## Paging: Return All',
	'',
	'paging kept',
	'',
	'## Memory: peak RSS growth at every Parallel Connections setting',
	'',
	'old memory table',
	'',
	'<!-- storage-phase:start -->',
	'storage kept',
	'<!-- storage-phase:end -->',
	'',
].join('\n');

describe('a download or memory phase run alone', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'gridbank-phase-section-'));
		writeFileSync(join(dir, 'results.md'), FULL_RUN);
		writeFileSync(join(dir, 'results.json'), JSON.stringify({ download: [], targets: [] }));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('replaces the download section in place, with its own targets, and keeps the rest', () => {
		const run = {
			download: download(200),
			memory: undefined,
			targets: [target('Download 1 GiB: ours / raw', '0.667')],
		};
		writeAlonePhaseSection('download', run, 'Measured now.', dir);
		const md = readFileSync(join(dir, 'results.md'), 'utf8');
		expect(md).not.toContain('old download table');
		expect(md).toContain('| Download 1 GiB: ours / raw | 0.5 (the full run) | ≥ 0.9 | **no** |');
		expect(md).toContain(
			"<!-- download-phase:start -->\n## Download: Get Download URL with Download File\n\nMeasured now. This section alone; the Targets table at the top is the full run's.",
		);
		expect(md).toContain('| Download 1 GiB: ours / raw | 0.667 | ≥ 0.9 | **no** |');
		expect(md).toContain('| 1 GiB | 200 | 250 | 300 |');
		expect(md).toMatch(/<!-- download-phase:end -->\n\n## Paging: Return All\n\npaging kept/);
		expect(md).toContain('old memory table');
		expect(md).toContain('storage kept');
		const json = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
		expect(json.download[0].ours.mbPerSecond).toBe(200);
		expect(json.downloadMeasured).toBe('Measured now.');
		expect(json.downloadTargets).toEqual(run.targets);

		// Again: the marked section is replaced, not added twice.
		writeAlonePhaseSection('download', { ...run, download: download(210) }, 'Again.', dir);
		const again = readFileSync(join(dir, 'results.md'), 'utf8');
		expect(again.split('## Download:').length).toBe(2);
		expect(again).toContain('| 1 GiB | 210 | 250 | 300 |');
		expect(again).not.toContain('| 1 GiB | 200 |');
	});

	it('replaces the memory section the same way', () => {
		const targets = [target('Memory, 1 GiB over loopback', '61 MiB')];
		writeAlonePhaseSection('memory', { download: [], memory, targets }, 'Measured now.', dir);
		const md = readFileSync(join(dir, 'results.md'), 'utf8');
		expect(md).not.toContain('old memory table');
		expect(md).toContain('old download table');
		expect(md).toContain('### 1 GiB over loopback (3 rounds)');
		expect(md).toContain('| Memory, 1 GiB over loopback | 61 MiB | ≥ 0.9 | **no** |');
		expect(md).toMatch(/<!-- memory-phase:end -->\n\n<!-- storage-phase:start -->/);
		expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).memory).toEqual(memory);
	});
});
