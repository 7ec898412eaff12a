// The storage-chain benchmark's plans, verdicts and report (pure modules; the phase itself runs
// a real n8n in `npm run bench -- --only=storage`).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { GiB, MiB } from '../../bench/measure';
import { describeStorageRun, writeStorageSection } from '../../bench/storage-section';
import { storagePlans } from '../../bench/storage-plans';
import {
	combineRounds,
	FLAT_BOUND_MIB,
	renderStorage,
	storageTargets,
	verdict,
	type StorageRow,
} from '../../bench/storage-report';

const row = (over: Partial<StorageRow>): StorageRow => ({
	mode: 'filesystem',
	size: GiB,
	label: '1 GiB',
	link: 'loopback',
	node: 'Read/Write Files',
	peakMiB: 500,
	growthMiB: 80,
	chainSeconds: 10,
	hashOk: true,
	...over,
});

describe('storage-chain plans', () => {
	test('--short: 64 MiB in filesystem mode, S3 and Copy to Storage against Read/Write Files and n8n alone', () => {
		expect(storagePlans(true, [])).toEqual([
			{
				mode: 'filesystem',
				size: 64 * MiB,
				link: 'loopback',
				nodes: ['n8n alone', 'Read/Write Files', 'S3', 'Copy to Storage'],
				rounds: 1,
			},
		]);
	});

	test('full: 1 GiB in filesystem mode through every storage node; sizes the other modes hold; the copy at 4 GiB and over the WAN link', () => {
		const plans = storagePlans(false, []);
		expect(plans.map((p) => [p.mode, p.size, p.link])).toEqual([
			['filesystem', GiB, 'loopback'],
			// Our node refuses over 100 MiB in default mode; n8n's database mode over 512 MiB by default.
			['default', 96 * MiB, 'loopback'],
			['database', 256 * MiB, 'loopback'],
			['filesystem', 4 * GiB, 'loopback'],
			['filesystem', GiB, 'wan'],
			['filesystem', 4 * GiB, 'wan'],
		]);
		// n8n alone and the Read/Write baseline first: every other row is compared with them.
		const every = ['n8n alone', 'Read/Write Files', 'S3', 'FTP (SFTP)', 'Copy to Storage'];
		for (const p of plans.slice(0, 3)) expect(p.nodes).toEqual(every);
		// No S3 node at 4 GiB: n8n's binary store refuses a Buffer past 2 GiB.
		expect(plans.map((p) => p.nodes.join(','))).toEqual([
			...plans.slice(0, 3).map(() => every.join(',')),
			'n8n alone,Read/Write Files,Copy to Storage',
			// Over the WAN link, the raw copy (undici + lib-storage) beside the copy: what the path allows.
			'n8n alone,Read/Write Files,S3,Copy to Storage,Raw copy',
			'n8n alone,Read/Write Files,Copy to Storage,Raw copy',
		]);
	});

	test('--storage-nodes keeps only the rows named; plans made the same by --storage-size run once', () => {
		const copy = { mode: 'filesystem', size: 4096 * MiB, nodes: ['n8n alone', 'Copy to Storage'] };
		const raw = { ...copy, nodes: [...copy.nodes, 'Raw copy'], rounds: 3 };
		expect(
			storagePlans(false, [
				'--storage-size=4096',
				'--storage-modes=filesystem',
				'--storage-nodes=n8n alone,Copy to Storage',
			]),
		).toEqual([
			{ ...copy, link: 'loopback', rounds: 1 },
			// The copy brings its raw baseline where the plan has one (over the WAN link).
			{ ...raw, link: 'wan' },
		]);
		expect(storagePlans(false, ['--storage-links=wan']).map((p) => [p.link, p.size / GiB])).toEqual(
			[
				['wan', 1],
				['wan', 4],
			],
		);
	});

	test('rounds: 3 over the WAN link (where the throughput target is judged), 1 elsewhere; --storage-rounds sets every plan’s', () => {
		expect(storagePlans(false, []).map((p) => [p.link, p.rounds])).toEqual([
			['loopback', 1],
			['loopback', 1],
			['loopback', 1],
			['loopback', 1],
			['wan', 3],
			['wan', 3],
		]);
		expect(new Set(storagePlans(false, ['--storage-rounds=2']).map((p) => p.rounds))).toEqual(
			new Set([2]),
		);
	});

	test('--storage-size and --storage-modes narrow a run', () => {
		expect(
			storagePlans(false, ['--storage-size=8', '--storage-modes=database']).map((p) => [
				p.mode,
				p.size,
			]),
		).toEqual([['database', 8 * MiB]]);
	});
});

describe('storage-chain rounds', () => {
	const copy = (over: Partial<StorageRow>) =>
		row({ node: 'Copy to Storage', link: 'wan', ...over });
	test('MB/s, share of the link and ratio to the raw copy are medians; memory is the round that grew most', () => {
		const rounds = [
			[
				row({ node: 'n8n alone', peakMiB: 420, hashOk: undefined }),
				copy({
					mbPerSecond: 88,
					shareOfLink: 0.88,
					ratioToRawCopy: 0.95,
					growthMiB: 200,
					peakMiB: 620,
				}),
			],
			[
				row({ node: 'n8n alone', peakMiB: 421, hashOk: undefined }),
				copy({
					mbPerSecond: 91,
					shareOfLink: 0.91,
					ratioToRawCopy: 1.01,
					growthMiB: 230,
					peakMiB: 651,
				}),
			],
			[
				row({ node: 'n8n alone', peakMiB: 419, hashOk: undefined }),
				copy({
					mbPerSecond: 90,
					shareOfLink: 0.9,
					ratioToRawCopy: 0.97,
					growthMiB: 210,
					peakMiB: 629,
				}),
			],
		];
		const [alone, combined] = combineRounds(rounds);
		expect(combined).toMatchObject({
			mbPerSecond: 90,
			mbPerSecondRounds: [88, 91, 90],
			shareOfLink: 0.9,
			ratioToRawCopy: 0.97,
			growthMiB: 230,
			peakMiB: 651,
			hashOk: true,
		});
		expect(alone?.hashOk).toBeUndefined();
		const table = renderStorage([combined as StorageRow]).join('\n');
		expect(table).toContain('90 (median of 88, 91, 90)');
		const [, throughput] = storageTargets([combined as StorageRow]).filter((t) =>
			t.name.startsWith('Copy to Storage'),
		);
		expect(throughput).toMatchObject({
			met: true,
			value: expect.stringContaining('median of 3 rounds: 88, 91, 90'),
		});
	});

	test('one failed or wrong round makes the row failed or wrong; one round is the row as it was', () => {
		const ok = copy({ mbPerSecond: 90, shareOfLink: 0.9 });
		const failed = copy({
			mbPerSecond: undefined,
			shareOfLink: undefined,
			hashOk: undefined,
			error: 'HTTP 500',
		});
		const [row1] = combineRounds([[ok], [failed], [ok]]);
		expect(row1).toMatchObject({ error: 'HTTP 500', hashOk: false, mbPerSecond: undefined });
		expect(storageTargets([row1 as StorageRow]).every((t) => !t.met)).toBe(true);
		const [wrong] = combineRounds([[ok], [copy({ hashOk: false })]]);
		expect(wrong?.hashOk).toBe(false);
		expect(combineRounds([[ok]])).toEqual([ok]);
	});
});

describe('storage-chain verdicts and report', () => {
	test('flat only where the file is large enough to tell; holding the file at half its size', () => {
		expect(verdict(row({ growthMiB: FLAT_BOUND_MIB }))).toBe('flat');
		expect(verdict(row({ growthMiB: FLAT_BOUND_MIB + 1 }))).toBe('above the flat bound');
		expect(verdict(row({ growthMiB: 600 }))).toBe('holds the file');
		expect(verdict(row({ size: 64 * MiB, growthMiB: 10 }))).toBe('too small to tell');
		expect(verdict(row({ size: 96 * MiB, growthMiB: 300 }))).toBe('holds the file');
	});

	test('the hash target fails on any wrong or failed copy; the flat target reads the 1 GiB baseline', () => {
		const good = [row({}), row({ node: 'S3', growthMiB: 1100 })];
		const [hash, flat] = storageTargets(good);
		expect(hash?.met).toBe(true);
		expect(flat).toMatchObject({ met: true, value: expect.stringContaining('80 MiB') });
		expect(storageTargets([...good, row({ node: 'FTP (SFTP)', hashOk: false })])[0]?.met).toBe(
			false,
		);
		expect(
			storageTargets([row({ node: 'S3', hashOk: undefined, error: 'HTTP 500' })])[0]?.met,
		).toBe(false);
		expect(storageTargets([row({ growthMiB: 300 })])[1]?.met).toBe(false);
	});

	test('each copy of 1 GiB or more: growth within 256 MiB; over the WAN link, at least 0.9 of the link', () => {
		const copy = (over: Partial<StorageRow>) => row({ node: 'Copy to Storage', ...over });
		const targets = storageTargets([
			copy({ growthMiB: 250 }),
			copy({ size: 4 * GiB, label: '4 GiB', growthMiB: 261 }),
			copy({ link: 'wan', growthMiB: 200, mbPerSecond: 95, shareOfLink: 0.95 }),
			copy({ link: 'wan', size: 4 * GiB, label: '4 GiB', growthMiB: 200, shareOfLink: 0.8 }),
			copy({ size: 64 * MiB, label: '64 MiB', growthMiB: 500 }),
		]).filter((t) => t.name.startsWith('Copy to Storage'));
		expect(targets.map((t) => [t.name, t.met])).toEqual([
			['Copy to Storage, filesystem 1 GiB, loopback: peak RSS growth over n8n alone', true],
			['Copy to Storage, filesystem 4 GiB, loopback: peak RSS growth over n8n alone', false],
			[
				'Copy to Storage, filesystem 1 GiB over the WAN link (100 MB/s): peak RSS growth over n8n alone',
				true,
			],
			[
				'Copy to Storage, filesystem 1 GiB over the WAN link (100 MB/s): MB/s / what the link allows',
				true,
			],
			[
				'Copy to Storage, filesystem 4 GiB over the WAN link (100 MB/s): peak RSS growth over n8n alone',
				true,
			],
			[
				'Copy to Storage, filesystem 4 GiB over the WAN link (100 MB/s): MB/s / what the link allows',
				false,
			],
		]);
		expect(targets[3]?.value).toBe('0.95 (95 of 100 MB/s)');
	});

	test('the raw copy (not an n8n process) shows no n8n memory; the copy shows its MB/s over the raw copy', () => {
		const wan = { link: 'wan' as const, mbPerSecond: 60, shareOfLink: 0.6 };
		const raw = row({ node: 'Raw copy', ...wan, mbPerSecond: 75, shareOfLink: 0.75, peakMiB: 0 });
		const copy = row({ node: 'Copy to Storage', ...wan, growthMiB: 150, ratioToRawCopy: 0.8 });
		const md = renderStorage([raw, copy]).join('\n');
		expect(md).toMatch(/\| WAN \| Raw copy \| - \| - \| - \| - \| 75 \| 0.75 \| - \| ok \| - \|/);
		expect(md).toMatch(
			/\| WAN \| Copy to Storage \| 500 MiB \| 150 MiB \|.*\| 60 \| 0.6 \| 0.8 \| ok \|/,
		);
		const share = storageTargets([raw, copy]).find((t) => t.name.endsWith('what the link allows'));
		expect(share?.value).toBe("0.6 (60 of 100 MB/s; 0.8 of the raw copy's)");
	});

	test('bench/results/results.md gets one line per row, failures with their message', () => {
		const md = renderStorage([
			row({ node: 'n8n alone', growthMiB: 0 }),
			row({ node: 'S3', growthMiB: 1100, verdict: 'holds the file' }),
			row({ node: 'FTP (SFTP)', hashOk: undefined, error: 'connection refused' }),
		]).join('\n');
		expect(md).toContain('## Storage chain');
		expect(md).toMatch(
			/\| filesystem \| 1 GiB \| loopback \| S3 \| 500 MiB \| 1100 MiB \|.*\| ok \| holds the file \|/,
		);
		expect(md).toContain('failed: connection refused');
		expect(renderStorage(undefined)).toEqual([]);
	});

	test('--only=storage rewrites its section of results.md (first the hand-written one, then its own) and its fields of results.json, nothing else', () => {
		const dir = mkdtempSync(join(tmpdir(), 'storage-section-'));
		const before =
			'# Results\n\n## WAN\n\nwan rows\n\n## Storage chain: old\n\nold rows\n\n<!-- scrub-phase:start -->\n## Scrub\n<!-- scrub-phase:end -->\n';
		writeFileSync(join(dir, 'results.md'), before);
		writeFileSync(join(dir, 'results.json'), JSON.stringify({ targets: [], storage: [] }));
		const run = {
			date: '2026-11-27T05:40:00.000Z',
			machine: { cpu: 'CPU', cores: 2 },
			seconds: 100,
			loadAverage: { start: [1, 2, 3], end: [4, 5, 6] },
			storage: [row({ node: 'Copy to Storage', link: 'wan', shareOfLink: 0.93 })],
			targets: storageTargets([row({ node: 'Copy to Storage', link: 'wan', shareOfLink: 0.93 })]),
		};
		const measured = describeStorageRun(run, ['--only=storage'], '2.41.1');
		expect(measured).toContain(
			'load average (1, 5, 15 min) 1, 2, 3 at the start, 4, 5, 6 at the end',
		);
		for (let i = 0; i < 2; i++) {
			writeStorageSection(run, measured, dir);
			const md = readFileSync(join(dir, 'results.md'), 'utf8');
			expect(md).not.toContain('old rows');
			expect(md.match(/## Storage chain/g)).toHaveLength(1);
			expect(md).toContain('## WAN\n\nwan rows\n\n<!-- storage-phase:start -->');
			expect(md).toContain('| filesystem | 1 GiB | WAN | Copy to Storage |');
			expect(md).toContain('MB/s / what the link allows | 0.93');
			expect(md).toMatch(
				/<!-- storage-phase:end -->\n\n<!-- scrub-phase:start -->\n## Scrub\n<!-- scrub-phase:end -->\n$/,
			);
		}
		const json = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
		expect(json).toEqual({
			targets: [],
			storage: run.storage,
			storageMeasured: expect.stringMatching(/^Measured .* The other sections come from/),
			storageTargets: run.targets,
		});
		rmSync(dir, { recursive: true, force: true });
	});

	test('a narrowed storage run replaces its own rows and keeps the others, naming the run each comes from', () => {
		const dir = mkdtempSync(join(tmpdir(), 'storage-section-'));
		const { link: _link, ...oldRow } = row({ node: 'S3', growthMiB: 1100 });
		const oldCopy = row({ node: 'Copy to Storage', growthMiB: 300 });
		writeFileSync(
			join(dir, 'results.json'),
			JSON.stringify({ storage: [oldRow, oldCopy], storageMeasured: 'OLD RUN.' }),
		);
		writeFileSync(join(dir, 'results.md'), '# Results\n');
		const fresh = [
			row({ node: 'Copy to Storage', growthMiB: 200 }),
			row({ node: 'Copy to Storage', link: 'wan', growthMiB: 210, shareOfLink: 0.95 }),
		];
		const run = {
			date: '2026-11-27T05:40:00.000Z',
			machine: { cpu: 'CPU', cores: 2 },
			seconds: 100,
			loadAverage: { start: [1, 2, 3], end: [4, 5, 6] },
			storage: fresh,
		};
		writeStorageSection(run, 'NEW RUN.', dir);
		const json = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
		expect(json.storage).toEqual([{ ...oldRow, link: 'loopback' }, fresh[0], fresh[1]]);
		expect(json.storageMeasured).toBe(
			'NEW RUN. That run measured the rows filesystem 1 GiB loopback Copy to Storage; filesystem 1 GiB wan Copy to Storage. The other rows are from an earlier storage run: OLD RUN.',
		);
		const md = readFileSync(join(dir, 'results.md'), 'utf8');
		expect(md).toContain('| filesystem | 1 GiB | loopback | Copy to Storage | 500 MiB | 200 MiB |');
		expect(md).not.toContain('| 300 MiB |');
		rmSync(dir, { recursive: true, force: true });
	});
});
