// The raw copy: what this machine allows on Copy to Storage's path, in a fresh process forked by
// the storage phase (raw-copy-run.ts). undici fetches the same signed URL as ranged segments
// over `connections` connections (ranged-segments.ts), and AWS's own lib-storage Upload streams
// them in order into the same S3 server with the copy's part size and parts in flight
// (queueSize), each part with the SDK's default checksum (CRC32 in this version, where the copy
// sends Content-MD5). No guards, no SHA-256 of the whole: the most the path gives.
//
// argv: JSON RawCopyInput; prints one JSON line, RawCopyResult.
import './env';

import { Readable } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

import { USER_AGENT } from '../nodes/shared/version';
import { signedUrlOf } from '../test/simulator/helpers';
import { PeakRss } from './measure';
import { rangedSegments } from './ranged-segments';

export interface RawCopyInput {
	baseUrl: string;
	videoKey: string;
	size: number;
	connections: number;
	segmentBytes: number;
	partBytes: number;
	queueSize: number;
	s3: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
	bucket: string;
	key: string;
}

export interface RawCopyResult {
	seconds: number;
	cpuSeconds: number;
	rssGrowthBytes: number;
}

const signedUrl = (baseUrl: string, videoKey: string) =>
	signedUrlOf(baseUrl, videoKey, { ua: USER_AGENT });

async function main(): Promise<void> {
	const input = JSON.parse(process.argv[2] ?? '{}') as RawCopyInput;
	const url = await signedUrl(input.baseUrl, input.videoKey);
	const client = new S3Client({
		endpoint: input.s3.endpoint,
		region: input.s3.region,
		forcePathStyle: true,
		credentials: { accessKeyId: input.s3.accessKeyId, secretAccessKey: input.s3.secretAccessKey },
	});
	const meter = new PeakRss();
	meter.start();
	const cpuAtStart = process.cpuUsage();
	const t0 = performance.now();
	await new Upload({
		client,
		params: {
			Bucket: input.bucket,
			Key: input.key,
			Body: Readable.from(rangedSegments(url, input)),
		},
		partSize: input.partBytes,
		queueSize: input.queueSize,
	}).done();
	const seconds = (performance.now() - t0) / 1000;
	const used = process.cpuUsage(cpuAtStart);
	const result: RawCopyResult = {
		seconds,
		cpuSeconds: (used.user + used.system) / 1e6,
		rssGrowthBytes: meter.stop().growthBytes,
	};
	process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
