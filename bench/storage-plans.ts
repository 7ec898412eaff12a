// What the storage-chain phase measures: which binary data modes, file sizes and storage nodes.
import { GiB, MiB } from './measure';
import type { StorageLink, StorageMode } from './storage-report';
import type { StorageNode } from './storage-workflows';

export interface StoragePlan {
	mode: StorageMode;
	size: number;
	link: StorageLink;
	nodes: StorageNode[];
	/** Rounds of every row, interleaved: MB/s is the median, memory the round that grew most. */
	rounds: number;
}

const EVERY: StorageNode[] = [
	'n8n alone',
	'Read/Write Files',
	'S3',
	'FTP (SFTP)',
	'Copy to Storage',
];
/** The copy beside the two chains it replaces; no S3 node at 4 GiB: n8n's binary store refuses a Buffer past 2 GiB. */
const COPY_1G: StorageNode[] = ['n8n alone', 'Read/Write Files', 'S3', 'Copy to Storage'];
const COPY_4G: StorageNode[] = ['n8n alone', 'Read/Write Files', 'Copy to Storage'];
/** Over the WAN link, the copy beside the raw copy (raw-copy.ts): what the machine allows on that path. */
const WAN_1G: StorageNode[] = [...COPY_1G, 'Raw copy'];
const WAN_4G: StorageNode[] = [...COPY_4G, 'Raw copy'];
/** Whether any plan runs an SFTP row: those, and only those, need sshd (not --short, i.e. CI). */
export const needsSshd = (plans: StoragePlan[]): boolean =>
	plans.some((p) => p.nodes.includes('FTP (SFTP)'));

/**
 * Full: 1 GiB in filesystem mode (what a production n8n uses for video), sizes that fit in the
 * modes that hold binary data in memory (default, 96 MiB) or in the database (256 MiB); then
 * Copy to Storage at 4 GiB, and at 1 GiB and 4 GiB over the WAN-like link.
 * Short (CI): 64 MiB, filesystem, S3, Read/Write Files and Copy to Storage only, loopback.
 */
export function storagePlans(short: boolean, argv = process.argv): StoragePlan[] {
	const arg = (name: string) =>
		argv.find((a) => a.startsWith(`--${name}=`))?.slice(`--${name}=`.length);
	// --storage-size=64 (MiB) and --storage-modes=filesystem,default: fewer or smaller rows (plans
	// that become the same, e.g. 1 GiB and 4 GiB at one size, run once).
	const size = arg('storage-size');
	const modes = arg('storage-modes')?.split(',');
	// --storage-nodes="n8n alone,Copy to Storage": only these rows (a 4 GiB copy without the S3
	// node's 4 GiB Buffer); the raw copy comes with the copy over the WAN link.
	const asked = arg('storage-nodes')?.split(',');
	const only = asked?.includes('Copy to Storage') ? [...asked, 'Raw copy'] : asked;
	// --storage-links=wan: only the plans over that link.
	const links = arg('storage-links')?.split(',');
	// --storage-rounds=N: every plan's rows N times (default: 3 over the WAN link, where the
	// throughput target is judged and one run's MB/s varies by a few per cent; else 1).
	const rounds = Number(arg('storage-rounds')) || undefined;
	const plans: StoragePlan[] = short
		? [{ mode: 'filesystem', size: 64 * MiB, link: 'loopback', nodes: COPY_1G, rounds: 1 }]
		: (
				[
					{ mode: 'filesystem', size: GiB, link: 'loopback', nodes: EVERY },
					// Our node refuses a file over 100 MiB in default mode before its body (README).
					{ mode: 'default', size: 96 * MiB, link: 'loopback', nodes: EVERY },
					{ mode: 'database', size: 256 * MiB, link: 'loopback', nodes: EVERY },
					{ mode: 'filesystem', size: 4 * GiB, link: 'loopback', nodes: COPY_4G },
					{ mode: 'filesystem', size: GiB, link: 'wan', nodes: WAN_1G },
					{ mode: 'filesystem', size: 4 * GiB, link: 'wan', nodes: WAN_4G },
				] as Array<Omit<StoragePlan, 'rounds'>>
			).map((p) => ({ ...p, rounds: p.link === 'wan' ? 3 : 1 }));
	return plans
		.filter((p) => !modes || modes.includes(p.mode))
		.filter((p) => !links || links.includes(p.link))
		.map((p) => (size ? { ...p, size: Number(size) * MiB } : p))
		.map((p) => (rounds ? { ...p, rounds } : p))
		.map((p) => (only ? { ...p, nodes: p.nodes.filter((n) => only.includes(n)) } : p))
		.filter((p, i, all) => all.findIndex((q) => JSON.stringify(q) === JSON.stringify(p)) === i);
}
