// Phase 7 of npm run bench: the storage chain in a real n8n (scripts/n8n/n8n-runtime.js, `n8n
// execute`): GridBank (the simulator) -> the Partner node's Download File -> one of n8n's storage
// nodes -> its destination, per binary data mode. Each row is one n8n process; its peak RSS
// (the kernel's maxrss at exit) is compared with n8n alone (Manual Trigger -> No Op) and with
// the same file written by Read/Write Files, in the same run; the destination's SHA-256 is
// checked against the simulator's file. Plans over the WAN link put GridBank's storage behind the
// WAN phase's link (wan-phase.ts's WAN_LINK) for their rows.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { DEMO_ENTERPRISE_KEY, DEMO_PARTNER_KEY, fileSha256 } from '../simulator';
import { ROOT, TMP } from './env';
import { GiB, MiB, round } from './measure';
import type { ChildSimulator } from './sim';
import { startSshd } from './sshd';
import { BUCKET, chainWorkflow, storageCredentials, type StorageNode } from './storage-workflows';
import { needsSshd, type StoragePlan } from './storage-plans';
import {
	combineRounds,
	LINK_MB_PER_SECOND,
	storageTargets,
	verdict,
	type StorageRow,
} from './storage-report';
import { WAN_LINK } from './wan-phase';
import { rawCopyRun } from './raw-copy-run';

interface Instance {
	userFolder: string;
	filesFolder: string;
	importCredentials(c: object[]): Promise<void>;
	importWorkflows(w: object[]): Promise<void>;
	execute(
		id: string,
		o: { measureRss: boolean; env: Record<string, string> },
	): Promise<{
		ok: boolean;
		code: number | null;
		peakRssBytes?: number;
		error?: { message?: string; description?: string };
		runData: Record<string, Array<{ executionTime?: number }>>;
		stderr?: string;
	}>;
}
interface Runtime {
	ensureN8n(o: { log: (m: string) => void }): Promise<unknown>;
	buildAndPack(o: { log: (m: string) => void }): Promise<string>;
	createInstance(o: object): Promise<Instance>;
	demoCredentials(baseUrl: string, keys: object): object[];
	freePort(): Promise<number>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const rt = () => require(join(ROOT, 'scripts', 'n8n', 'n8n-runtime.js')) as Runtime;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const s3Server = () => require(join(ROOT, 'scripts', 'services', 's3-server.js'));

const label = (size: number) => (size >= GiB ? `${size / GiB} GiB` : `${size / MiB} MiB`);

function sha256File(file: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const hash = createHash('sha256');
		createReadStream(file)
			.on('data', (d) => hash.update(d))
			.on('end', () => resolve(hash.digest('hex')))
			.on('error', reject);
	});
}

/** s3rver keeps an object's bytes as `<bucket>/<key>._S3rver_object`, beside its metadata. */
const S3_FILES = ['object', 'metadata.json', 'object.md5'].map((s) => `._S3rver_${s}`);

/** The files each node's copy leaves; the first holds the bytes. */
function destination(which: StorageNode, dirs: Record<string, string>, name: string): string[] {
	if (which === 'S3' || which === 'Copy to Storage' || which === 'Raw copy')
		return S3_FILES.map((suffix) => join(dirs.s3 as string, BUCKET, `${name}${suffix}`));
	return [join((which === 'FTP (SFTP)' ? dirs.sftp : dirs.files) as string, name)];
}

export async function benchStorageChain(
	sim: ChildSimulator,
	plans: StoragePlan[],
	log: (message: string) => void,
): Promise<{ rows: StorageRow[]; targets: ReturnType<typeof storageTargets> }> {
	const runtime = rt();
	await runtime.ensureN8n({ log });
	const tgz = await runtime.buildAndPack({ log });
	const base = join(TMP, 'storage-chain');
	rmSync(base, { recursive: true, force: true });
	const dirs = { s3: join(base, 's3'), sftp: join(base, 'sftp'), files: join(base, 'files') };
	mkdirSync(dirs.sftp, { recursive: true });
	const n8n = await runtime.createInstance({
		userFolder: join(base, 'n8n-user'),
		filesFolder: dirs.files,
		fresh: true,
		tgz,
	});
	const s3 = await s3Server().startS3Server({ directory: dirs.s3, buckets: [BUCKET] });
	const sshd = needsSshd(plans)
		? await startSshd(join(ROOT, '.cache', 'bench-sshd'), await runtime.freePort())
		: undefined;
	const rows: StorageRow[] = [];
	let env: Record<string, string> = {};
	try {
		await n8n.importCredentials([
			...runtime.demoCredentials(sim.baseUrl, { DEMO_PARTNER_KEY, DEMO_ENTERPRISE_KEY }),
			...storageCredentials({ s3, sftp: sshd }),
		]);
		// The first `n8n execute` of a fresh user folder does one-time work (and has been seen to
		// end early): a warm-up run, not measured.
		await n8n.importWorkflows([chainWorkflow('benchChainWarmUp', 'n8n alone', '', '', '')]);
		await n8n.execute('benchChainWarmUp', { measureRss: false, env: {} });
		for (const [p, plan] of plans.entries()) {
			const videoKey = await sim.benchVideo(30 + p, plan.size, `chain-${p}.mov`);
			const expected = fileSha256(videoKey, plan.size);
			env = { N8N_DEFAULT_BINARY_DATA_MODE: plan.mode };
			// BENCH_N8N_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=…": each n8n process under a profiler.
			if (process.env.BENCH_N8N_NODE_OPTIONS) env.NODE_OPTIONS = process.env.BENCH_N8N_NODE_OPTIONS;
			await sim.call('faults.wanLink', plan.link === 'wan' ? WAN_LINK : null);
			const rounds: StorageRow[][] = [];
			for (let round = 1; round <= plan.rounds; round++) {
				const planRows: StorageRow[] = [];
				for (const which of plan.nodes) {
					const n = planRows.length;
					const id = `benchChain${p}n${n}r${round}`.padEnd(16, '0');
					const name = `chain-${p}-${n}.mov`;
					const target = { baseUrl: sim.baseUrl, videoKey, size: plan.size, s3, bucket: BUCKET };
					// The rows before wrote (and deleted) gigabytes: their writeback must not run
					// beside this row's transfer, which writes to the same disk.
					execFileSync('sync');
					const run =
						which === 'Raw copy'
							? await rawCopyRun({ ...target, key: name })
							: await chainRun(id, which, videoKey, name);
					const row = toRow(plan, which, run);
					if (run.ok && which !== 'n8n alone') {
						const [file, ...rest] = destination(which, dirs, name) as [string, ...string[]];
						row.destinationBytes = existsSync(file) ? statSync(file).size : 0;
						row.hashOk =
							row.destinationBytes === plan.size && (await sha256File(file)) === expected;
						for (const f of [file, ...rest]) rmSync(f, { force: true });
					}
					// Free the disk: the execution's stored binary data (filesystem mode).
					rmSync(join(n8n.userFolder, '.n8n', 'binaryData'), { recursive: true, force: true });
					planRows.push(row);
					log(
						`storage ${plan.mode} ${label(plan.size)} ${plan.link} ${which}${plan.rounds > 1 ? ` (round ${round} of ${plan.rounds})` : ''}: ${row.error ? `FAILED: ${row.error}` : `peak RSS ${which === 'Raw copy' ? '-' : `${row.peakMiB} MiB`}, ${row.mbPerSecond ?? '-'} MB/s${row.shareOfLink === undefined ? '' : ` (${row.shareOfLink} of the link)`}, hash ${row.hashOk === undefined ? '-' : row.hashOk ? 'ok' : 'WRONG'}`}`,
					);
				}
				rounds.push(compare(planRows));
			}
			rows.push(...combineRounds(rounds));
		}
	} finally {
		await sim.call('faults.wanLink', null).catch(() => undefined);
		await sshd?.close();
		await s3.close();
		rmSync(base, { recursive: true, force: true });
	}
	return { rows, targets: storageTargets(rows) };

	async function chainRun(
		id: string,
		which: Exclude<StorageNode, 'Raw copy'>,
		videoKey: string,
		name: string,
	) {
		await n8n.importWorkflows([chainWorkflow(id, which, videoKey, name, destFolder(which))]);
		return await measured(n8n, id, env, log);
	}

	function destFolder(which: StorageNode): string {
		return which === 'FTP (SFTP)' ? dirs.sftp : dirs.files;
	}
}

/**
 * One measured `n8n execute`. On this loaded 2-core machine a short run (n8n alone) has been
 * seen ending by a signal just as it finished, before it could report its peak RSS: such a run
 * is run again, at most twice. A run that fails with an exit code is not.
 */
async function measured(
	n8n: Instance,
	id: string,
	env: Record<string, string>,
	log: (message: string) => void,
): ReturnType<Instance['execute']> {
	for (let attempt = 1; ; attempt++) {
		const run = await n8n.execute(id, { measureRss: true, env });
		if (run.code !== null || attempt === 3) return run;
		log(`storage: n8n ended by a signal (workflow ${id}); running it again`);
	}
}

function toRow(
	plan: StoragePlan,
	which: StorageNode,
	run: Awaited<ReturnType<Instance['execute']>>,
): StorageRow {
	const ms = (name: string) => run.runData[name]?.[0]?.executionTime ?? 0;
	const chainMs = ms('Download master') + ms('Store');
	const mbPerSecond =
		which !== 'n8n alone' && run.ok && chainMs
			? round(plan.size / 1e6 / (chainMs / 1000))
			: undefined;
	const error = run.ok
		? undefined
		: `${run.error?.message ?? `n8n exited with ${run.code}: ${run.stderr?.slice(-300)}`} ${run.error?.description ?? ''}`
				.trim()
				.slice(-400);
	return {
		mode: plan.mode,
		size: plan.size,
		label: label(plan.size),
		link: plan.link,
		node: which,
		peakMiB: round((run.peakRssBytes ?? 0) / MiB),
		growthMiB: 0,
		chainSeconds: round(chainMs / 1000, 2),
		mbPerSecond,
		shareOfLink:
			plan.link === 'wan' && mbPerSecond ? round(mbPerSecond / LINK_MB_PER_SECOND, 2) : undefined,
		error,
	};
}

/** Growth over n8n alone and the ratios against it and against Read/Write Files, one plan's rows. */
function compare(rows: StorageRow[]): StorageRow[] {
	const alone = rows.find((r) => r.node === 'n8n alone');
	const baseline = rows.find((r) => r.node === 'Read/Write Files');
	const raw = rows.find((r) => r.node === 'Raw copy' && !r.error);
	for (const r of rows) {
		if (r.node === 'Raw copy') continue; // not an n8n process: no n8n memory to compare
		if (raw?.mbPerSecond && r.mbPerSecond && r.node === 'Copy to Storage')
			r.ratioToRawCopy = round(r.mbPerSecond / raw.mbPerSecond, 2);
		if (alone?.peakMiB) {
			r.growthMiB = round(r.peakMiB - alone.peakMiB);
			r.peakRatioToN8n = round(r.peakMiB / alone.peakMiB, 2);
		}
		if (baseline?.peakMiB && r.node !== 'n8n alone') {
			r.peakRatioToBaseline = round(r.peakMiB / baseline.peakMiB, 2);
			if (baseline.growthMiB > 0)
				r.growthRatioToBaseline = round(r.growthMiB / baseline.growthMiB, 2);
		}
		if (r.node !== 'n8n alone' && !r.error) r.verdict = verdict(r);
	}
	return rows;
}
