// The storage-chain benchmark's plans, verdicts and report (pure modules; the phase itself runs
// a real n8n in `npm run bench -- --only=storage`).
import { GiB, MiB } from '../../bench/measure';
import { storagePlans } from '../../bench/storage-plans';
import {
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
				nodes: ['n8n alone', 'Read/Write Files', 'S3', 'Copy to Storage'],
			},
		]);
	});

	test('full: 1 GiB in filesystem mode through every storage node; sizes the other modes hold', () => {
		const plans = storagePlans(false, []);
		expect(plans.map((p) => [p.mode, p.size])).toEqual([
			['filesystem', GiB],
			// Our node refuses over 100 MiB in default mode; n8n's database mode over 512 MiB by default.
			['default', 96 * MiB],
			['database', 256 * MiB],
		]);
		// n8n alone and the Read/Write baseline first: every other row is compared with them.
		for (const p of plans)
			expect(p.nodes).toEqual([
				'n8n alone',
				'Read/Write Files',
				'S3',
				'FTP (SFTP)',
				'Copy to Storage',
			]);
	});

	test('--storage-nodes keeps only the rows named', () => {
		expect(
			storagePlans(false, [
				'--storage-size=4096',
				'--storage-modes=filesystem',
				'--storage-nodes=n8n alone,Copy to Storage',
			]),
		).toEqual([{ mode: 'filesystem', size: 4096 * MiB, nodes: ['n8n alone', 'Copy to Storage'] }]);
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

	test('bench/results.md gets one line per row, failures with their message', () => {
		const md = renderStorage([
			row({ node: 'n8n alone', growthMiB: 0 }),
			row({ node: 'S3', growthMiB: 1100, verdict: 'holds the file' }),
			row({ node: 'FTP (SFTP)', hashOk: undefined, error: 'connection refused' }),
		]).join('\n');
		expect(md).toContain('## Storage chain');
		expect(md).toMatch(
			/\| filesystem \| 1 GiB \| S3 \| 500 MiB \| 1100 MiB \|.*\| ok \| holds the file \|/,
		);
		expect(md).toContain('failed: connection refused');
		expect(renderStorage(undefined)).toEqual([]);
	});
});
