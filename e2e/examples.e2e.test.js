'use strict';
/**
 * Every workflow in examples/ imported into the real n8n and run as shipped (from its Manual
 * Trigger, as `n8n execute` does; S3 and Slack nodes enabled) against the simulator, the local
 * S3 server and the Slack stand-in, with assertions on what each step produced, on every object
 * in the bucket and on every Slack message that arrived.
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
	TRIGGER_EXAMPLE_STARTS,
} = require('./helpers');
const { expectMastersInBucket, expectAnnounced } = require('./job-checks');
const { AWS_BUCKET, BUCKET } = require('../scripts/services/job-services');

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
// Every run's n8n reaches Slack through the stand-in's proxy.
const execute = (id) => s.n8n.execute(id, { env: s.job.n8nEnv });
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
		// `n8n execute` starts at a Manual Trigger; trigger examples run published (see helpers.js).
		const start = TRIGGER_EXAMPLE_STARTS[f] ?? 'n8n-nodes-base.manualTrigger';
		expect(wf.nodes.some((n) => n.type === start)).toBe(true);
		expect(wf.nodes.some((n) => n.type.startsWith('n8n-nodes-gridbank.'))).toBe(true);
		for (const [from, conn] of Object.entries(wf.connections)) {
			expect(names).toContain(from);
			for (const target of conn.main.flat()) expect(names).toContain(target.node);
		}
		// Runnable as shipped: nothing disabled; every node that needs a credential names it,
		// and the sticky note tells the user which one to create.
		const note = wf.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote').parameters.content;
		for (const n of wf.nodes) {
			expect(n.disabled).toBeUndefined();
			const needs = {
				'n8n-nodes-base.s3': 's3',
				'n8n-nodes-base.awsS3': 'aws',
				'n8n-nodes-base.slack': 'slackApi',
			}[n.type];
			if (!needs) continue;
			expect(Object.keys(n.credentials ?? {})).toEqual([needs]);
			expect(note).toContain(`**${n.credentials[needs].name}**`);
		}
	}
});

test('hourly example: copies exactly the videos licensed since the last run into S3 with Copy to Storage (key, size, SHA-256 in the bucket and on the item) and posts one Slack message naming each; the next run finds nothing', async () => {
	const { sim, simulator, n8n, job } = s;
	const now = Date.now();
	const fresh = [];
	for (let i = 0; i < 3; i++)
		fresh.push(
			...simulator.addPartnerLicences(sim.DEMO_PARTNER_KEY, 1, {
				purchasedAt: now - (5 + 10 * i) * 60_000,
			}),
		);
	const { wf } = ex.hourly;
	for (const n of wf.nodes) expect(n.disabled).toBeUndefined(); // S3 and Slack run as shipped
	// Another file of this run may have copied the same simulator videos into the bucket, which
	// If Exists (Skip) would skip: the keys start free, as after a purchase.
	for (const key of fresh) await job.removeObjects(`gridbank/${key}/`);
	simulator.clearLog();
	const slackBefore = job.slack.messages.length;

	const run = await execute(wf.id);
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

	// Copy to Storage: each master straight into the bucket, no binary data in n8n.
	const copied = n8n.itemsOf(run, 'Copy master to bucket');
	expect(copied).toHaveLength(3);
	for (let i = 0; i < 3; i++) {
		const file = simulator.getVideoFile(fresh[i]);
		expect(copied[i].json).toEqual(
			expect.objectContaining({
				video_key: fresh[i],
				bucket: BUCKET,
				key: `gridbank/${fresh[i]}/${file.fileName}`,
				size: file.size,
				sha256: sim.fileSha256(fresh[i], file.size),
				skipped: false,
			}),
		);
		expect(copied[i].binary).toBeUndefined();
	}
	const stored = await expectMastersInBucket(s, fresh);

	// One Slack message, received by the stand-in as n8n's Slack node sent it.
	const titles = Object.fromEntries(listed.map((v) => [v.video_key, v.title]));
	const messages = job.slack.messages.slice(slackBefore);
	expect(messages.map((m) => m.channel)).toEqual(['#video-masters']);
	expect(messages[0].text).toContain('3 newly licensed videos backed up from GridBank to S3');
	expectAnnounced(messages[0].text, stored, titles, BUCKET, { withSha256: true });
	expect(n8n.itemsOf(run, 'Post to Slack')[0].json).toEqual(
		expect.objectContaining({ ok: true, channel: messages[0].channelId }),
	);

	// Storage is fetched without the API key; every API request identifies the package.
	const storage = simulator.log.filter((r) => r.target === 'storage');
	expect(storage.length).toBeGreaterThanOrEqual(3);
	for (const r of storage) expect(r.headers.authorization).toBeUndefined();
	for (const r of simulator.log.filter((r) => r.target === 'api'))
		expect(r.headers['user-agent']).toMatch(/^n8n-nodes-gridbank\//);
	assertNoSecret(run, sim.DEMO_PARTNER_KEY);
	expect(JSON.stringify(messages)).not.toContain(sim.DEMO_PARTNER_KEY);

	const next = await execute(wf.id);
	expect(next.ok ? '' : describeFailure(next)).toBe('');
	expect(n8n.itemsOf(next, 'List new licences')).toEqual([]);
	expect(next.runData['Copy master to bucket']).toBeUndefined();
	expect(job.slack.messages.length).toBe(slackBefore + 1); // nothing new: no message
});

test("enterprise example: top N search results, their metadata, and their original files on disk and in S3 (n8n's AWS S3 node, custom endpoint)", async () => {
	const { sim, simulator, n8n } = s;
	const { wf, folder } = ex.enterprise;
	const settings = wf.nodes.find((n) => n.name === 'Search settings').parameters.assignments
		.assignments;
	const topN = settings.find((a) => a.name === 'topN').value;
	simulator.clearLog();

	const run = await execute(wf.id);
	if (rt.N8N_MAJOR < 2) {
		// n8n 1.x's AWS S3 node signs a custom endpoint's requests for the service it reads from
		// the host and without x-amz-content-sha256: S3 refuses them (the example's note says so).
		expect(run.ok).toBe(false);
		expect(run.execution.data.resultData.lastNodeExecuted).toBe('Upload to AWS S3');
		expect(describeFailure(run)).toMatch(/x-amz-content-sha256|AuthorizationHeaderMalformed/);
		return;
	}
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
	// n8n's AWS S3 node (custom endpoint) stored each original in the bucket, byte-exact.
	// (It uploads filesystem binary data in 5 MiB parts: create, parts, ListParts, complete.)
	expect(n8n.itemsOf(run, 'Upload to AWS S3').map((i) => i.json.Key)).toEqual(
		found.map((v) => `gridbank/${v.id}/${simulator.getVideoFile(v.id).fileName}`),
	);
	expect(settings.find((a) => a.name === 'awsBucket').value).toBe(AWS_BUCKET);
	for (const v of found) {
		const file = simulator.getVideoFile(v.id);
		const key = `gridbank/${v.id}/${file.fileName}`;
		expect(await s.job.object(key, AWS_BUCKET)).toEqual({
			sha256: sim.fileSha256(v.id, file.size),
			size: file.size,
		});
	}
	// The search session id travels with each download request (analytics), as the example wires it.
	const downloadRequests = simulator.log.filter(
		(r) => r.target === 'api' && r.path.endsWith('/download'),
	);
	expect(downloadRequests).toHaveLength(topN);
	for (const r of downloadRequests) expect(r.query.search_id).toBe(searchId);
	assertNoSecret(run, sim.DEMO_ENTERPRISE_KEY);
});

test('weekly usage example: the usage report posted to Slack', async () => {
	const { sim, n8n, job } = s;
	const { wf } = ex.weekly;
	const slackBefore = job.slack.messages.length;

	const run = await execute(wf.id);
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
	const messages = job.slack.messages.slice(slackBefore);
	expect(messages.map((m) => m.channel)).toEqual(['#video-ops']);
	expect(messages[0].text.startsWith(text)).toBe(true); // n8n appends its "Automated with" link
	assertNoSecret(run, sim.DEMO_ENTERPRISE_KEY);
});
