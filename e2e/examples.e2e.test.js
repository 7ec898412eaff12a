'use strict';
/**
 * Every workflow in examples/ imported into the real n8n and run (from its Manual Trigger, as
 * `n8n execute` does) against the simulator, with assertions on what each step produced and on
 * the files on disk.
 */
const fs = require('node:fs');
const path = require('node:path');
const {
	openSession,
	rt,
	sha256File,
	describeFailure,
	assertNoSecret,
	TRIGGER_EXAMPLES,
} = require('./helpers');

let s;
const ex = {};
beforeAll(async () => {
	s = await openSession();
	// One import for all (each n8n CLI call costs seconds): the examples as shipped, except the
	// download folder, pointed at a folder n8n may write to here.
	ex.hourly = importableExample('hourly-download-new-licences.json', 'hourly');
	ex.enterprise = importableExample('enterprise-search-download-top.json', 'enterprise');
	ex.weekly = importableExample('weekly-usage-report-slack.json', 'weekly');
	await s.n8n.importWorkflows(Object.values(ex).map((e) => e.wf));
});
afterAll(async () => {
	await s?.close();
});

function importableExample(file, folderName) {
	const wf = rt.loadExample(file);
	const folder = path.join(s.state.filesFolder, folderName);
	fs.rmSync(folder, { recursive: true, force: true });
	fs.mkdirSync(folder, { recursive: true }); // n8n's Write to Disk needs an existing folder, like a user's
	try {
		rt.withDownloadFolder(wf, folder);
	} catch {
		/* writes no files */
	}
	return { wf, folder };
}

test('every example is an n8n workflow with GridBank nodes and consistent connections, and every one is run by this suite', () => {
	const files = rt.exampleFiles();
	expect(files.length).toBeGreaterThanOrEqual(3);
	const manual = files.filter((f) => !TRIGGER_EXAMPLES.includes(f));
	expect(
		Object.values(ex)
			.map((e) => e.wf.id)
			.sort(),
	).toEqual(manual.map((f) => rt.loadExample(f).id).sort());
	for (const f of files) {
		const wf = rt.loadExample(f);
		const names = wf.nodes.map((n) => n.name);
		expect(new Set(names).size).toBe(names.length);
		expect(new Set(files.map((x) => rt.loadExample(x).id)).size).toBe(files.length);
		// n8n 1.x saves a workflow's static data ("since the last run", the trigger's memory) only for ids of up to 16 characters.
		expect(wf.id.length).toBeLessThanOrEqual(16);
		// `n8n execute` starts at a Manual Trigger; trigger examples run published in editor.e2e.test.js.
		const start = TRIGGER_EXAMPLES.includes(f)
			? 'n8n-nodes-gridbank.gridBankPartnerTrigger'
			: 'n8n-nodes-base.manualTrigger';
		expect(wf.nodes.some((n) => n.type === start)).toBe(true);
		expect(wf.nodes.some((n) => n.type.startsWith('n8n-nodes-gridbank.'))).toBe(true);
		for (const [from, conn] of Object.entries(wf.connections)) {
			expect(names).toContain(from);
			for (const target of conn.main.flat()) expect(names).toContain(target.node);
		}
	}
});

test('hourly example: lists exactly the videos licensed since the last run, downloads each master to disk; the next run finds nothing', async () => {
	const { sim, simulator, n8n } = s;
	const now = Date.now();
	const fresh = [];
	for (let i = 0; i < 3; i++)
		fresh.push(
			...simulator.addPartnerLicences(sim.DEMO_PARTNER_KEY, 1, {
				purchasedAt: now - (5 + 10 * i) * 60_000,
			}),
		);
	const { wf, folder } = ex.hourly;
	simulator.clearLog();

	const run = await n8n.execute(wf.id);
	expect(run.ok ? '' : describeFailure(run)).toBe('');
	const listed = n8n.itemsOf(run, 'List new licences').map((i) => i.json);
	expect(listed.map((v) => v.video_key)).toEqual(fresh); // newest purchase first
	for (const v of listed) {
		expect(v).toEqual(
			expect.objectContaining({
				video_key: expect.any(String),
				purchased_at: expect.any(Number),
				creator: expect.any(Object),
			}),
		);
	}
	// purchasedAfter stops paging at the first older purchase: one list request, not 13.
	expect(
		simulator.log.filter((r) => r.target === 'api' && r.path === '/partner/v1/content'),
	).toHaveLength(1);

	const downloaded = n8n.itemsOf(run, 'Download master');
	expect(downloaded).toHaveLength(3);
	const written = n8n.itemsOf(run, 'Write to disk');
	for (let i = 0; i < 3; i++) {
		const { json, binary } = downloaded[i];
		const file = simulator.getVideoFile(fresh[i]);
		expect(json).toEqual(
			expect.objectContaining({
				video_key: fresh[i],
				fileName: file.fileName,
				fileSize: file.size,
				mimeType: 'video/quicktime',
			}),
		);
		expect(binary.data.id).toMatch(/^filesystem/); // n8n's filesystem binary mode, not memory
		const onDisk = written[i].json.fileName;
		expect(onDisk).toBe(path.join(folder, file.fileName));
		expect(fs.statSync(onDisk).size).toBe(file.size);
		expect(await sha256File(onDisk)).toBe(sim.fileSha256(fresh[i], file.size));
	}
	const slack = n8n.itemsOf(run, 'Summary for Slack')[0].json;
	expect(slack.count).toBe(3);
	expect(slack.text).toContain('3 newly licensed videos downloaded');
	// S3 and Slack ship disabled: the run needs no AWS or Slack credential, and nothing was sent.
	for (const name of ['Upload to S3', 'Post to Slack'])
		expect(wf.nodes.find((n) => n.name === name).disabled).toBe(true);

	// Storage is fetched without the API key; every API request identifies the package.
	const storage = simulator.log.filter((r) => r.target === 'storage');
	expect(storage.length).toBeGreaterThanOrEqual(3);
	for (const r of storage) expect(r.headers.authorization).toBeUndefined();
	for (const r of simulator.log.filter((r) => r.target === 'api'))
		expect(r.headers['user-agent']).toMatch(/^n8n-nodes-gridbank\//);
	assertNoSecret(run, sim.DEMO_PARTNER_KEY);

	const next = await n8n.execute(wf.id);
	expect(next.ok ? '' : describeFailure(next)).toBe('');
	expect(n8n.itemsOf(next, 'List new licences')).toEqual([]);
	expect(next.runData['Download master']).toBeUndefined();
});

test('enterprise example: top N search results, their metadata, and their original files on disk', async () => {
	const { sim, simulator, n8n } = s;
	const { wf, folder } = ex.enterprise;
	const settings = wf.nodes.find((n) => n.name === 'Search settings').parameters.assignments
		.assignments;
	const topN = settings.find((a) => a.name === 'topN').value;
	simulator.clearLog();

	const run = await n8n.execute(wf.id);
	expect(run.ok ? '' : describeFailure(run)).toBe('');
	const found = n8n.itemsOf(run, 'Search videos').map((i) => i.json);
	expect(found).toHaveLength(topN);
	const searchId = found[0].search_id;
	expect(searchId).toEqual(expect.any(String));
	for (const v of found) expect(v.search_id).toBe(searchId);

	const meta = n8n.itemsOf(run, 'Get metadata').map((i) => i.json);
	expect(meta.map((m) => m.id)).toEqual(found.map((v) => v.id));
	for (const m of meta) {
		const truth = simulator.getVideo(m.id);
		expect(m).toEqual(
			expect.objectContaining({
				id: truth.id,
				title: truth.title,
				duration: truth.duration,
				keywords: truth.keywords,
			}),
		);
	}

	const downloads = n8n.itemsOf(run, 'Download original');
	const records = n8n.itemsOf(run, 'Catalogue record').map((i) => i.json);
	expect(records).toHaveLength(topN);
	for (let i = 0; i < topN; i++) {
		const file = simulator.getVideoFile(found[i].id);
		expect(downloads[i].json).toEqual(
			expect.objectContaining({
				video_id: found[i].id,
				file_size: file.size,
				fileSize: file.size,
				fileName: file.fileName,
			}),
		);
		const onDisk = path.join(folder, file.fileName);
		expect(fs.statSync(onDisk).size).toBe(file.size);
		expect(await sha256File(onDisk)).toBe(sim.fileSha256(found[i].id, file.size));
		expect(records[i]).toEqual(
			expect.objectContaining({
				id: found[i].id,
				title: meta[i].title,
				file: onDisk,
				fileSize: file.size,
				resolution: `${meta[i].width}x${meta[i].height}`,
			}),
		);
	}
	// The search session id travels with each download request (analytics), as the example wires it.
	const downloadRequests = simulator.log.filter(
		(r) => r.target === 'api' && r.path.endsWith('/download'),
	);
	expect(downloadRequests).toHaveLength(topN);
	for (const r of downloadRequests) expect(r.query.search_id).toBe(searchId);
	assertNoSecret(run, sim.DEMO_ENTERPRISE_KEY);
});

test('weekly usage example: the usage report formatted as a Slack message', async () => {
	const { sim, n8n } = s;
	const { wf } = ex.weekly;

	const run = await n8n.execute(wf.id);
	expect(run.ok ? '' : describeFailure(run)).toBe('');
	const usage = n8n.itemsOf(run, 'Get usage')[0].json;
	expect(usage).toEqual(
		expect.objectContaining({
			customer_id: expect.any(String),
			tier: expect.any(String),
			lease_period_start: expect.any(String),
			lease_period_end: expect.any(String),
			downloads_this_period: expect.any(Number),
			top_videos: expect.any(Array),
		}),
	);
	const { text, downloads } = n8n.itemsOf(run, 'Format for Slack')[0].json;
	expect(downloads).toBe(usage.downloads_this_period);
	expect(text).toContain('*GridBank weekly usage*');
	expect(text).toContain(`Plan: *${usage.tier}*`);
	expect(text).toContain(`Downloads this period: *${usage.downloads_this_period}*`);
	expect(text).not.toMatch(/undefined|NaN|Invalid DateTime/);
	expect(wf.nodes.find((n) => n.name === 'Post to Slack').disabled).toBe(true);
	assertNoSecret(run, sim.DEMO_ENTERPRISE_KEY);
});
