// n8n's in-memory binary data mode (N8N_DEFAULT_BINARY_DATA_MODE=default, n8n 1.x's default)
// through n8n-core's real engine and BinaryDataService: a file over the node's threshold is
// refused before its body with advice naming the setting; a large file under it still downloads
// into memory, intact. This process's peak RSS during each run is sampled and printed.
import { Container } from '@n8n/di';
import { createHash } from 'node:crypto';
import * as core from 'n8n-core';

import { MEMORY_MODE_MAX_BYTES } from '../../../../nodes/shared/download/memory-mode';
import { DEMO_PARTNER_KEY, fileSha256 } from '../../../../simulator';
import { runEnterprise, runPartner } from '../../../harness/run-gridbank';
import { initBinaryData } from '../../../harness/run-node';
import { useSimulator } from '../../../harness/simulator';
import { PROMPTLY_MS } from '../../../harness/time-bounds';

const sim = useSimulator();
const MiB = 1024 * 1024;

beforeAll(async () => {
	// Before n8n-core's binary data service starts: older n8n-core reads the environment, newer its config.
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'default';
	const Config = (core as unknown as { BinaryDataConfig?: new () => { mode: string } })
		.BinaryDataConfig;
	if (Config) Container.get(Config).mode = 'default';
	await initBinaryData();
});

/** Runs `work`, sampling this process's RSS every 10 ms: resolves with its result and the peak growth over the start. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; growthBytes: number }> {
	const start = process.memoryUsage.rss();
	let peak = start;
	const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
	try {
		const result = await work();
		peak = Math.max(peak, process.memoryUsage.rss());
		return { result, growthBytes: peak - start };
	} finally {
		clearInterval(timer);
	}
}

const licensed = (n: number) => sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;
const storageRequests = () => sim().log.filter((entry) => entry.target !== 'api');
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

test('a file one byte over the threshold is refused before its body, naming N8N_DEFAULT_BINARY_DATA_MODE=filesystem', async () => {
	const videoKey = licensed(0);
	sim().setVideoFile(videoKey, { size: MEMORY_MODE_MAX_BYTES + 1 });
	// At this pace the body would take minutes: a quick end shows it was not read.
	sim().faults.slowDownload(512 * 1024);
	sim().clearLog();
	const started = Date.now();
	const { result: run, growthBytes } = await withPeakRss(
		async () => await runPartner({ operation: 'getDownloadUrl', videoKey, download: true }),
	);
	sim().faults.slowDownload(0);
	console.log(
		`[memory mode] ${mib(MEMORY_MODE_MAX_BYTES + 1)} refused in ${Date.now() - started} ms, peak RSS growth ${mib(growthBytes)}`,
	);
	expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
	expect(run.items).toEqual([]);
	expect(run.error?.message).toBe(
		`The file (101 MiB) is too big for n8n's in-memory binary data mode`,
	);
	expect(run.error?.description).toMatch(/N8N_DEFAULT_BINARY_DATA_MODE=filesystem/);
	expect(run.error?.description).toMatch(/over 100 MiB/);
	expect(storageRequests()).toHaveLength(1);
	expect(growthBytes).toBeLessThan(64 * MiB);
});

test('Enterprise: a 4 GiB file (file_size) is refused before storage is asked for a byte', async () => {
	const key = sim().createEnterpriseAccount({ tier: 'growth' }).key;
	const [videoId] = sim().addEnterpriseVideos([{ title: 'Big master' }]);
	sim().setVideoFile(videoId, { size: 4 * 1024 * MiB });
	sim().clearLog();
	const run = await runEnterprise(
		{ resource: 'video', operation: 'getDownload', videoId, download: true },
		{ apiKey: key },
	);
	expect(run.error?.message).toBe(
		`The file (4096 MiB) is too big for n8n's in-memory binary data mode`,
	);
	expect(run.error?.description).toMatch(/N8N_DEFAULT_BINARY_DATA_MODE=filesystem/);
	expect(storageRequests()).toEqual([]);
});

test('a 96 MiB file, under the threshold, still downloads into memory intact (peak RSS printed)', async () => {
	const videoKey = licensed(1);
	const size = 96 * MiB;
	sim().setVideoFile(videoKey, { size });
	const { result: run, growthBytes } = await withPeakRss(
		async () => await runPartner({ operation: 'getDownloadUrl', videoKey, download: true }),
	);
	console.log(
		`[memory mode] ${mib(size)} downloaded into memory, peak RSS growth ${mib(growthBytes)}`,
	);
	expect(run.error).toBeUndefined();
	const binary = run.items[0].binary?.data;
	// In memory mode n8n keeps the file base64-encoded on the item itself: no store id.
	expect(binary?.id).toBeUndefined();
	const bytes = Buffer.from(binary?.data ?? '', 'base64');
	expect(bytes.length).toBe(size);
	expect(createHash('sha256').update(bytes).digest('hex')).toBe(fileSha256(videoKey, size));
	expect(run.items[0].json.fileSize).toBe(size);
});
