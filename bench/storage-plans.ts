// What the storage-chain phase measures: which binary data modes, file sizes and storage nodes.
import { GiB, MiB } from './measure';
import type { StorageMode } from './storage-report';
import type { StorageNode } from './storage-workflows';

export interface StoragePlan {
	mode: StorageMode;
	size: number;
	nodes: StorageNode[];
}

const EVERY: StorageNode[] = [
	'n8n alone',
	'Read/Write Files',
	'S3',
	'FTP (SFTP)',
	'Copy to Storage',
];
/**
 * Full: 1 GiB in filesystem mode (what a production n8n uses for video), sizes that fit in the
 * modes that hold binary data in memory (default, 96 MiB) or in the database (256 MiB).
 * Short (CI): 64 MiB, filesystem, S3, Read/Write Files and Copy to Storage only.
 */
export function storagePlans(short: boolean, argv = process.argv): StoragePlan[] {
	const arg = (name: string) =>
		argv.find((a) => a.startsWith(`--${name}=`))?.slice(`--${name}=`.length);
	// --storage-size=64 (MiB) and --storage-modes=filesystem,default: fewer or smaller rows.
	const size = arg('storage-size');
	const modes = arg('storage-modes')?.split(',');
	// --storage-nodes="n8n alone,Copy to Storage": only these rows (a 4 GiB copy without the S3 node's 4 GiB Buffer).
	const only = arg('storage-nodes')?.split(',');
	const plans: StoragePlan[] = short
		? [
				{
					mode: 'filesystem',
					size: 64 * MiB,
					nodes: ['n8n alone', 'Read/Write Files', 'S3', 'Copy to Storage'],
				},
			]
		: [
				{ mode: 'filesystem', size: GiB, nodes: EVERY },
				// Our node refuses a file over 100 MiB in default mode before its body (README).
				{ mode: 'default', size: 96 * MiB, nodes: EVERY },
				{ mode: 'database', size: 256 * MiB, nodes: EVERY },
			];
	return plans
		.filter((p) => !modes || modes.includes(p.mode))
		.map((p) => (size ? { ...p, size: Number(size) * MiB } : p))
		.map((p) => (only ? { ...p, nodes: p.nodes.filter((n) => only.includes(n)) } : p));
}
