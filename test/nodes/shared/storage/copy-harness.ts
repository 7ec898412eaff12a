// What the copy tests share: the local S3 server (scripts/services/s3-server.js, with h14's fault switches
// and request log), the storage credential pointing at it, and runs of both Copy to Storage
// operations through n8n-core's real engine against the simulator.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { setBasePartBytes } from '../../../../nodes/shared/storage/part-plan';
import { runEnterprise, runPartner, type GridBankRunOptions } from '../../../harness/run-gridbank';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startS3Server } = require('../../../../scripts/services/s3-server.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { objectSha256, listObjects } = require('../../../../scripts/services/s3/client.js');

export const BUCKET = 'gridbank-masters';
export const MIB = 1024 * 1024;

export interface S3Request {
	method: string;
	op: string;
	key?: string;
	partNumber?: number;
	status?: number;
	headers: Record<string, string>;
}
export interface S3 {
	endpoint: string;
	region: string;
	accessKeyId: string;
	secretAccessKey: string;
	faults: {
		add(rule: Record<string, unknown>): void;
		clear(): void;
		hits: Array<{ op: string; partNumber?: number; status: number }>;
	};
	requests: S3Request[];
	listMultipartUploads(bucket: string): Promise<Array<{ key: string; uploadId: string }>>;
	/** 'ignore': the server behaves as a store that does not know x-amz-checksum-algorithm. */
	setChecksums(mode: 'verify' | 'ignore'): void;
	close(): Promise<void>;
}

/** Starts one S3 server for the file (parts of 5 MiB, so a few MiB make several parts). */
export function useS3(): () => S3 {
	let s3: S3;
	let dir: string;
	beforeAll(async () => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridbank-copy-'));
		s3 = await startS3Server({ directory: dir, buckets: [BUCKET] });
		setBasePartBytes(5 * MIB);
	});
	beforeEach(() => {
		s3.setChecksums('verify');
		s3.faults.clear();
		s3.faults.hits.length = 0;
		s3.requests.length = 0;
	});
	afterAll(async () => {
		setBasePartBytes();
		await s3?.close();
		fs.rmSync(dir, { recursive: true, force: true });
	});
	return () => s3;
}

export const storageCredential = (s3: S3, overrides: Record<string, unknown> = {}) => ({
	gridBankS3StorageApi: {
		endpoint: s3.endpoint,
		region: s3.region,
		accessKeyId: s3.accessKeyId,
		secretAccessKey: s3.secretAccessKey,
		addressing: 'path',
		...overrides,
	},
});

type Extra = GridBankRunOptions & { credential?: Record<string, unknown> };

export const copyPartner = (s3: S3, parameters: Record<string, unknown>, options: Extra = {}) =>
	runPartner(
		{ operation: 'copyToStorage', bucket: BUCKET, ...parameters },
		{ ...options, credentials: storageCredential(s3, options.credential) },
	);

export const copyEnterprise = (s3: S3, parameters: Record<string, unknown>, options: Extra = {}) =>
	runEnterprise(
		{ operation: 'copyToStorage', bucket: BUCKET, ...parameters },
		{ ...options, credentials: storageCredential(s3, options.credential) },
	);

/** The object as the bucket's S3 API serves it. */
export const readBack = async (s3: S3, key: string): Promise<{ sha256: string; size: number }> =>
	await objectSha256(s3, BUCKET, key);

export const objectsIn = async (s3: S3): Promise<Array<{ key: string; size: number }>> =>
	await listObjects(s3, BUCKET);

/** Multipart uploads neither completed nor aborted, waited for a moment (an abort may still be on its way). */
export async function openUploads(s3: S3, settleMs = 3000) {
	const until = Date.now() + settleMs;
	let open = await s3.listMultipartUploads(BUCKET);
	while (open.length && Date.now() < until) {
		await new Promise((r) => setTimeout(r, 100));
		open = await s3.listMultipartUploads(BUCKET);
	}
	return open;
}
