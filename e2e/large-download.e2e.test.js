'use strict';
/**
 * A 600 MB master through the real n8n in filesystem binary mode: downloaded by the Partner
 * node, written to disk by n8n's Write to Disk node, with the n8n process's peak RSS (the
 * kernel's maxrss, read at exit) compared with the same workflow moving a 2 MB file.
 */
const fs = require('node:fs');
const path = require('node:path');
const {
	ARTIFACTS,
	openSession,
	manualTrigger,
	partner,
	node,
	workflow,
	sha256File,
	describeFailure,
	rt,
} = require('./helpers');

const BIG = 600 * 1024 * 1024;
const SMALL = 2 * 1024 * 1024;
/**
 * Extra peak memory n8n may use for the big file over the small one: 150 MiB of slack for n8n's
 * own streaming path and V8's lazy collection of Buffers, plus the 64 MiB parallel-download window
 * (docs/downloads.md "Parallel connections": up to that many bytes of segments fetched ahead may wait in memory
 * at the default of 8 connections; the 2 MiB file is one segment and never uses it).
 */
const PARALLEL_WINDOW = 64 * 1024 * 1024;
const RSS_GROWTH_BOUND = 150 * 1024 * 1024 + PARALLEL_WINDOW;

let s;
beforeAll(async () => {
	s = await openSession();
});
afterAll(async () => {
	await s?.close();
});

function downloadWorkflow(id, videoKey, folder) {
	const start = manualTrigger();
	const dl = partner('Download master', { operation: 'getDownloadUrl', videoKey, download: true });
	const write = node('Write to disk', 'n8n-nodes-base.readWriteFile', {
		operation: 'write',
		fileName: `=${folder}/{{ $json.fileName }}`,
		dataPropertyName: 'data',
		options: {},
	});
	return workflow(
		id,
		`e2e: download ${videoKey}`,
		[start, dl, write],
		[
			[start.name, dl.name],
			[dl.name, write.name],
		],
	);
}

test(`a ${rt.fmtBytes(BIG)} master streams through n8n: file intact on disk, peak RSS within ${rt.fmtBytes(RSS_GROWTH_BOUND)} of a ${rt.fmtBytes(SMALL)} run`, async () => {
	const { sim, simulator, n8n, state } = s;
	const [small, big] = simulator.partnerLicences(sim.DEMO_PARTNER_KEY).map((l) => l.video_key);
	simulator.setVideoFile(small, { size: SMALL });
	simulator.setVideoFile(big, { size: BIG });
	const folder = path.join(state.filesFolder, 'large');
	fs.rmSync(folder, { recursive: true, force: true });
	fs.mkdirSync(folder, { recursive: true });
	const wfSmall = downloadWorkflow('e2eDownloadSmall', small, folder);
	const wfBig = downloadWorkflow('e2eDownloadBig', big, folder);
	await n8n.importWorkflows([wfSmall, wfBig]);

	const base = await n8n.execute(wfSmall.id, { measureRss: true });
	expect(base.ok ? '' : describeFailure(base)).toBe('');
	const run = await n8n.execute(wfBig.id, { measureRss: true });
	expect(run.ok ? '' : describeFailure(run)).toBe('');

	const out = n8n.itemsOf(run, 'Download master')[0];
	const file = simulator.getVideoFile(big);
	expect(out.json).toEqual(
		expect.objectContaining({ video_key: big, fileSize: BIG, fileName: file.fileName }),
	);
	expect(out.binary.data.id).toMatch(/^filesystem/);
	const onDisk = path.join(folder, file.fileName);
	expect(fs.statSync(onDisk).size).toBe(BIG);
	expect(await sha256File(onDisk)).toBe(sim.fileSha256(big, BIG));

	expect(base.peakRssBytes).toBeGreaterThan(50 * 1024 * 1024);
	expect(run.peakRssBytes).toBeGreaterThan(50 * 1024 * 1024);
	const growth = run.peakRssBytes - base.peakRssBytes;
	const report = [
		`n8n peak RSS: ${rt.fmtBytes(base.peakRssBytes)} moving ${rt.fmtBytes(SMALL)}, ${rt.fmtBytes(run.peakRssBytes)} moving ${rt.fmtBytes(BIG)} (growth ${rt.fmtBytes(Math.max(0, growth))}, bound ${rt.fmtBytes(RSS_GROWTH_BOUND)})`,
		`big run: ${(run.ms / 1000).toFixed(1)} s including n8n start-up (small run ${(base.ms / 1000).toFixed(1)} s)`,
	].join('\n');
	console.log(report);
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	fs.writeFileSync(
		path.join(ARTIFACTS, 'large-download.txt'),
		`${report}\n${JSON.stringify({ base: base.rssByProcess, big: run.rssByProcess })}\n`,
	);
	// The bound is a third of the file: a run that held the file in memory could not pass it.
	expect(growth).toBeLessThan(RSS_GROWTH_BOUND);

	// Free the disk: the written copy and n8n's stored binary data.
	fs.rmSync(onDisk, { force: true });
	fs.rmSync(path.join(state.userFolder, '.n8n', 'binaryData'), { recursive: true, force: true });
});
