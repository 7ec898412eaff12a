// The workflows and credentials of the storage-chain phase: Manual Trigger -> GridBank Partner
// (Get Download URL with Download File) -> one of n8n's storage nodes, or Manual Trigger ->
// GridBank Partner (Copy to Storage) straight into the bucket, built with the builders the e2e
// suites use (scripts/n8n/workflow-builders.js), so that both describe workflows one way.
import { join } from 'node:path';

import { ROOT } from './env';

interface N8nNode {
	name: string;
	[key: string]: unknown;
}
interface Builders {
	node(name: string, type: string, parameters: object, extra?: object): N8nNode;
	manualTrigger(name?: string): N8nNode;
	partner(name: string, parameters: object, extra?: object): N8nNode;
	workflow(id: string, name: string, nodes: N8nNode[], edges: Array<[string, string]>): object;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const build = require(join(ROOT, 'scripts', 'n8n', 'workflow-builders.js')) as Builders;

/** The storage nodes measured, by the name the results use. */
export const STORAGE_NODES = [
	'n8n alone',
	'Read/Write Files',
	'S3',
	'FTP (SFTP)',
	'Copy to Storage',
	// Not an n8n node: undici + AWS's lib-storage on the copy's path (raw-copy.ts), its baseline.
	'Raw copy',
] as const;
export type StorageNode = (typeof STORAGE_NODES)[number];

export const BUCKET = 'gridbank-masters';
const S3_CRED = { s3: { id: 'benchS3Local00001', name: 'Local S3-compatible server' } };
const SFTP_CRED = { sftp: { id: 'benchSftpLocal001', name: 'Local OpenSSH server' } };
const STORAGE_CRED = {
	gridBankS3StorageApi: { id: 'benchStorageLocal', name: 'Local S3-compatible server (GridBank)' },
};

export interface Destinations {
	s3: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
	sftp?: { port: number; username: string; privateKey: string };
}

/** n8n credentials for the local S3 server and, for the SFTP rows, the local sshd. */
export function storageCredentials(d: Destinations): object[] {
	const { endpoint, region, accessKeyId, secretAccessKey } = d.s3;
	const s3 = {
		...S3_CRED.s3,
		type: 's3',
		data: { endpoint, region, accessKeyId, secretAccessKey, forcePathStyle: true },
	};
	const storage = {
		...STORAGE_CRED.gridBankS3StorageApi,
		type: 'gridBankS3StorageApi',
		data: { endpoint, region, accessKeyId, secretAccessKey, addressing: 'path', testBucket: '' },
	};
	if (!d.sftp) return [s3, storage];
	return [
		s3,
		storage,
		{
			...SFTP_CRED.sftp,
			type: 'sftp',
			data: {
				host: '127.0.0.1',
				port: d.sftp.port,
				username: d.sftp.username,
				privateKey: d.sftp.privateKey,
			},
		},
	];
}

/** The node that stores the downloaded master as `objectName` (under `folder` for files). */
function storageNode(
	which: Exclude<StorageNode, 'Copy to Storage' | 'Raw copy'>,
	objectName: string,
	folder: string,
): N8nNode {
	const binary = { binaryData: true, binaryPropertyName: 'data' };
	switch (which) {
		case 'n8n alone':
			return build.node('Store', 'n8n-nodes-base.noOp', {});
		case 'Read/Write Files':
			return build.node('Store', 'n8n-nodes-base.readWriteFile', {
				operation: 'write',
				fileName: join(folder, objectName),
				dataPropertyName: 'data',
				options: {},
			});
		case 'S3':
			return build.node(
				'Store',
				'n8n-nodes-base.s3',
				{
					resource: 'file',
					operation: 'upload',
					bucketName: BUCKET,
					fileName: objectName,
					...binary,
				},
				{ credentials: S3_CRED },
			);
		case 'FTP (SFTP)':
			return build.node(
				'Store',
				'n8n-nodes-base.ftp',
				{ protocol: 'sftp', operation: 'upload', path: join(folder, objectName), ...binary },
				{ credentials: SFTP_CRED },
			);
	}
}

/**
 * One chain. 'n8n alone' is a Manual Trigger and a No Op: the same n8n process moving nothing,
 * the floor every row's peak RSS is compared with.
 */
export function chainWorkflow(
	id: string,
	which: Exclude<StorageNode, 'Raw copy'>,
	videoKey: string,
	objectName: string,
	folder: string,
): object {
	const trigger = build.manualTrigger();
	// Not timed: `n8n execute` boots its task runner (about a CPU-second) beside the workflow's
	// start; a long-running n8n, where users' copies run, has done that already.
	const start = build.node(
		'Settle',
		'n8n-nodes-base.wait',
		{ amount: 3, unit: 'seconds' },
		{
			typeVersion: 1.1,
		},
	);
	const workflow = (name: string, nodes: N8nNode[], links: Array<[string, string]>) =>
		build.workflow(id, name, [trigger, start, ...nodes], [[trigger.name, start.name], ...links]);
	if (which === 'Copy to Storage') {
		// One node: the download and the upload are the copy ('Store', as the other rows time it).
		const copy = build.partner(
			'Store',
			{
				operation: 'copyToStorage',
				videoKey,
				bucket: BUCKET,
				key: objectName,
				ifExists: 'overwrite',
			},
			{
				credentials: {
					gridBankPartnerApi: { id: 'gbPartnerCredDemo', name: 'GridBank Partner account' },
					...STORAGE_CRED,
				},
			},
		);
		return workflow(`bench: GridBank -> ${which}`, [copy], [[start.name, copy.name]]);
	}
	const store = storageNode(which, objectName, folder);
	if (which === 'n8n alone')
		return workflow(`bench: ${which}`, [store], [[start.name, store.name]]);
	const download = build.partner('Download master', {
		operation: 'getDownloadUrl',
		videoKey,
		download: true,
	});
	return workflow(
		`bench: GridBank -> ${which}`,
		[download, store],
		[
			[start.name, download.name],
			[download.name, store.name],
		],
	);
}
