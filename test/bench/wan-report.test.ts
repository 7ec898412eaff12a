// The WAN phase's summary over interleaved rounds, its targets and its markdown
// (bench/wan-report.ts, bench/wan-render.ts), and --only=wan's rewrite of its section (bench/wan-section.ts, on a
// scratch folder), on made-up rounds: no transfer runs here.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { GiB } from '../../bench/measure';
import { writeWanSection } from '../../bench/wan-section';
import { renderWan } from '../../bench/wan-render';
import {
	summarizeConnections,
	summarizeLoaded,
	summarizeUneven,
	wanTargets,
	type WanEntry,
	type WanRound,
	type WanRun,
} from '../../bench/wan-report';

const LINK = { connectionBytesPerSecond: 25e6, rttMs: 40, linkBytesPerSecond: 100e6 };

const run = (mbPerSecond: number, over: Partial<WanRun> = {}): WanRun => ({
	mbPerSecond,
	seconds: 1073.7 / mbPerSecond,
	cpuSeconds: 4,
	cpuSecondsPerGiB: 4,
	rssGrowthMiB: 60,
	load: [1, 1.5],
	...over,
});

/** A round where ours runs at `ours` MB/s at 4+ connections and aria2c at `aria`. */
function round(ours: number, aria: number, stallSeconds = 12): WanRound {
	return {
		n8n: run(25, { cpuSecondsPerGiB: 7 }),
		raw: run(25, { cpuSecondsPerGiB: 3 }),
		byConnections: [1, 2, 4, 8, 16].map((connections) => ({
			connections,
			ours: run(connections >= 4 ? ours : 24, { cpuSecondsPerGiB: 5 }),
			rawRanged: run(96, { cpuSecondsPerGiB: 4 }),
			...(connections === 2
				? {}
				: { aria2c: run(aria, { cpuSecondsPerGiB: 2, peakRssMiB: 20, rssGrowthMiB: undefined }) }),
		})),
		uneven: [
			{
				profile: 'slow',
				ours: run(ours * 0.95, { handedOver: 3, bytesTwice: 0.01 * GiB }),
				aria2c: run(aria * 0.5),
			},
			{
				profile: 'stalled',
				ours: run(ours, { seconds: stallSeconds, handedOver: 1, bytesTwice: 0 }),
				aria2c: run(aria, { seconds: 20 }),
			},
			{ profile: 'random', ours: run(ours, { bytesTwice: 0.03 * GiB }) },
		],
	};
}

const entry = (rounds: WanRound[], over: Partial<WanEntry> = {}): WanEntry => ({
	size: GiB,
	label: '1 GiB',
	link: LINK,
	aria2c: { version: 'aria2 version 1.36.0' },
	rounds,
	loaded: {
		busy: 'one core kept busy',
		rounds: [{ ours: run(85), aria2c: run(90, { load: [2, 2.5] }) }],
	},
	...over,
});

test('per connection count: best MB/s, and the median of per-round ratios, so one noisy round does not decide', () => {
	// Round 2 is noisy for aria2c only: its ratio is the outlier, the median keeps the middle one.
	const e = entry([round(95, 94), round(95, 60), round(93, 95)]);
	const at8 = summarizeConnections(e).find((c) => c.connections === 8);
	expect(at8).toMatchObject({
		oursBest: 95,
		aria2cBest: 95,
		toAria2c: 1.01,
		toRaw: 0.99,
		shareOfLink: 0.95,
	});
	expect(at8?.cpu).toEqual({ ours: 5, raw: 4, aria2c: 2 });
	expect(at8?.cpuToRaw).toBe(1.25);
	expect(at8?.load).toEqual([1, 1.5]);
	const at2 = summarizeConnections(e).find((c) => c.connections === 2);
	expect(at2?.aria2cBest).toBeUndefined();
});

test('uneven profiles are compared with the same round at equal speeds; bytes twice as a share of the file, worst round', () => {
	const [slow, stalled, random] = summarizeUneven(entry([round(95, 94)]));
	expect(slow).toMatchObject({
		throughput: 0.95,
		twiceShare: 1,
		handedOver: [3],
		aria2cThroughput: 0.5,
	});
	expect(stalled?.time).toBeCloseTo(12 / (1073.7 / 95), 1);
	expect(random).toMatchObject({ twiceShare: 3, aria2cBest: undefined });
	expect(summarizeLoaded(entry([round(95, 94)]))).toMatchObject({ toAria2c: 0.94, load: [1, 2.5] });
});

test("targets: ours against aria2c from 4 connections up, the link at the default, CPU against raw's, the uneven and loaded ones", () => {
	const targets = wanTargets(entry([round(95, 94, 12.5)]));
	const verdict = (name: string) => targets.find((t) => t.name.includes(name))?.met;
	expect(verdict('ours / aria2c at 4')).toBe(true);
	expect(verdict('ours / aria2c at 16')).toBe(true);
	expect(verdict('/ link cap')).toBe(true);
	expect(verdict('CPU-s per GiB')).toBe(false);
	expect(verdict('tenth of the speed')).toBe(true);
	expect(verdict('stalled')).toBe(true);
	expect(verdict('bytes fetched twice')).toBe(false);
	expect(verdict('one core kept busy')).toBe(true);
	const behind = wanTargets(entry([round(80, 94, 20)]));
	expect(behind.find((t) => t.name.includes('ours / aria2c at 8'))?.met).toBe(false);
	expect(behind.find((t) => t.name.includes('stalled'))?.met).toBe(false);
});

test('without aria2c the rows say how to install it, and the rest is still reported', () => {
	const missing = round(95, 94);
	for (const c of missing.byConnections) delete c.aria2c;
	for (const u of missing.uneven) delete u.aria2c;
	const e = entry([missing], {
		aria2c: { note: 'aria2c not found: install Debian’s aria2' },
		loaded: { busy: 'x', rounds: [{ ours: run(85) }] },
	});
	const md = renderWan([e]).join('\n');
	expect(md).toContain('aria2c: aria2c not found: install Debian’s aria2.');
	expect(md).toContain('| 8 | 95 | 96 | — | — |');
	const aria = wanTargets(e).find((t) => t.name.endsWith('ours / aria2c'));
	expect(aria).toMatchObject({ met: false });
	expect(aria?.value).toContain('install');
});

test('the markdown has the side-by-side, uneven and loaded tables with their load averages', () => {
	const md = renderWan([entry([round(95, 94), round(93, 95)])]).join('\n');
	expect(md).toContain('### 1 GiB, 2 round(s)');
	expect(md).toContain('| 8 | 95 | 96 | 95 | 0.99 | 0.98 | 0.94 |');
	expect(md).toContain('#### 1 GiB: uneven connections, 8 connections');
	expect(md).toContain('| one connection of eight at a tenth of the speed |');
	expect(md).toContain('#### 1 GiB: under load, one core kept busy, 8 connections');
	expect(md).toContain('1–2.5');
	expect(renderWan(undefined)).toEqual([]);
});

test('--only=wan alone rewrites its section and fields in a results folder, keeping the sizes it did not run', () => {
	const dir = mkdtempSync(join(tmpdir(), 'gridbank-wan-section-'));
	try {
		writeFileSync(
			join(dir, 'results.md'),
			'# Benchmark results\n\n## Overhead\n\nkept\n\n## WAN: parallel connections over a capped link\n\nold table\n\n<!-- queue-mode:start -->\nqueue\n<!-- queue-mode:end -->\n',
		);
		const fourGiB = { ...entry([round(96, 95)]), size: 4 * GiB, label: '4 GiB' };
		writeFileSync(
			join(dir, 'results.json'),
			JSON.stringify({
				wan: [fourGiB, { label: '1 GiB', byConnections: [] }],
				wanMeasured: 'Earlier.',
				targets: [],
			}),
		);
		writeWanSection([entry([round(95, 94)])], 'Measured now.', dir);
		const md = readFileSync(join(dir, 'results.md'), 'utf8');
		expect(md).not.toContain('old table');
		expect(md).toContain('## Overhead\n\nkept');
		expect(md).toContain(
			'<!-- wan-phase:start -->\n## WAN: parallel connections over a capped link\n\nMeasured now. It measured 1 GiB; 4 GiB from an earlier run: Earlier.',
		);
		expect(md).toContain('| WAN 1 GiB: ours / aria2c at 8 connections |');
		expect(md).toContain('### 4 GiB, 1 round(s)');
		expect(md).toMatch(/<!-- wan-phase:end -->\n\n<!-- queue-mode:start -->/);
		const json = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
		expect(json.wan.map((e: WanEntry) => e.label)).toEqual(['1 GiB', '4 GiB']);
		expect(json.wanTargets.length).toBeGreaterThan(10);
		// Again: the marked section is replaced in place, not added twice.
		writeWanSection([entry([round(95, 94)])], 'Measured again.', dir);
		const again = readFileSync(join(dir, 'results.md'), 'utf8');
		expect(again.split('## WAN:').length).toBe(2);
		expect(again).toContain('Measured again.');
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});

test('sizes kept from an earlier run are said to come from it: a full run by its date, a WAN run by its note', () => {
	const dir = mkdtempSync(join(tmpdir(), 'gridbank-wan-section-'));
	try {
		writeFileSync(join(dir, 'results.md'), '# Benchmark results\n');
		const fourGiB = { ...entry([round(96, 95)]), size: 4 * GiB, label: '4 GiB' };
		// A full run writes no wanMeasured: its date is the whole file's.
		writeFileSync(
			join(dir, 'results.json'),
			JSON.stringify({ date: '2026-11-28T10:23:00.000Z', wan: [fourGiB], targets: [] }),
		);
		writeWanSection([entry([round(95, 94)])], 'Measured now.', dir);
		expect(readFileSync(join(dir, 'results.md'), 'utf8')).toContain(
			'Measured now. It measured 1 GiB; 4 GiB from an earlier run: the full run of 2026-11-28 10:23 UTC.',
		);
		// Then the other size: the note names the run of each size, never an older note's tail.
		writeWanSection([fourGiB], 'Measured later.', dir);
		const md = readFileSync(join(dir, 'results.md'), 'utf8');
		expect(md).toContain(
			'Measured later. It measured 4 GiB; 1 GiB from an earlier run: Measured now.\n',
		);
		expect(md).not.toContain('the full run of');
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
