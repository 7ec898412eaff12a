'use strict';
/**
 * Every operation of both action nodes, run in the real n8n (installed from the tarball)
 * against the simulator: one workflow whose Manual Trigger fans out to one node per case, so a
 * single n8n run covers them all; then the error paths as n8n users see them.
 */
const {
	openSession,
	manualTrigger,
	partner,
	enterprise,
	workflow,
	fanOut,
	describeFailure,
	assertNoSecret,
	BAD_PARTNER_CRED,
} = require('./helpers');

let s;
beforeAll(async () => {
	s = await openSession();
});
afterAll(async () => {
	await s?.close();
});

test('Partner and Enterprise: every operation, with the outputs checked against the simulator', async () => {
	const { sim, simulator, n8n } = s;
	const licences = simulator.partnerLicences(sim.DEMO_PARTNER_KEY);
	const [k0, k1] = licences.map((l) => l.video_key);
	const cutoff = licences[6].purchased_at; // strictly newer than this: the first 6 (distinct seeded timestamps)
	const unique = simulator.addEnterpriseVideos(
		Array.from({ length: 7 }, (_, i) => ({
			title: `Zebraquartz parade ${i}`,
			keywords: ['zebraquartz'],
		})),
	);
	const someId = unique[3];

	const start = manualTrigger();
	const nodes = [
		partner('P list limit', { operation: 'listContent', returnAll: false, limit: 5 }),
		partner('P list all', { operation: 'listContent', returnAll: true }),
		partner('P list after', {
			operation: 'listContent',
			returnAll: true,
			options: { purchasedAfter: new Date(cutoff * 1000).toISOString() },
		}),
		partner('P url', { operation: 'getDownloadUrl', videoKey: k0 }),
		partner('P download', {
			operation: 'getDownloadUrl',
			videoKey: k1,
			download: true,
			binaryPropertyName: 'master',
		}),
		enterprise('E search limit', {
			resource: 'video',
			operation: 'search',
			query: 'lighthouse',
			returnAll: false,
			limit: 5,
			filters: { sort: 'recent' },
		}),
		enterprise('E search all', {
			resource: 'video',
			operation: 'search',
			query: 'zebraquartz',
			returnAll: true,
		}),
		enterprise('E get', { resource: 'video', operation: 'get', videoId: someId }),
		enterprise('E url', {
			resource: 'video',
			operation: 'getDownload',
			videoId: someId,
			expiresIn: 2,
		}),
		enterprise('E download', {
			resource: 'video',
			operation: 'getDownload',
			videoId: unique[4],
			searchId: 'srch_e2e',
			download: true,
		}),
		enterprise('E usage', { resource: 'usage', operation: 'get' }),
	];
	const wf = workflow(
		'e2eAllOperations',
		'e2e: every operation',
		[start, ...nodes],
		fanOut(start, nodes),
	);
	await n8n.importWorkflows([wf]);
	simulator.clearLog();

	const run = await n8n.execute(wf.id);
	expect(run.ok ? '' : describeFailure(run)).toBe('');
	const json = (name) => n8n.itemsOf(run, name).map((i) => i.json);

	// Partner: List Licensed Content
	expect(json('P list limit').map((v) => v.video_key)).toEqual(
		licences.slice(0, 5).map((l) => l.video_key),
	);
	const all = json('P list all');
	expect(all).toHaveLength(licences.length);
	expect(all.map((v) => v.video_key)).toEqual(licences.map((l) => l.video_key));
	expect(all[0]).toEqual(
		expect.objectContaining({
			video_key: k0,
			title: expect.anything(),
			creator: expect.objectContaining({ id: expect.any(String) }),
		}),
	);
	const listCalls = simulator.log.filter((r) => r.path === '/partner/v1/content');
	expect(listCalls.filter((r) => r.query.per_page === '100').length).toBe(
		Math.ceil(licences.length / 100) + 1,
	); // all + after
	expect(json('P list after').map((v) => v.video_key)).toEqual(
		licences.slice(0, 6).map((l) => l.video_key),
	);

	// Partner: Get Download URL, without and with the file
	const url = json('P url')[0];
	expect(url).toEqual({
		video_key: k0,
		url: expect.stringContaining(simulator.storageUrl),
		expires_at: expect.any(Number),
	});
	const dl = n8n.itemsOf(run, 'P download')[0];
	const f1 = simulator.getVideoFile(k1);
	expect(dl.json).toEqual(
		expect.objectContaining({
			video_key: k1,
			fileName: f1.fileName,
			fileSize: f1.size,
			mimeType: 'video/quicktime',
		}),
	);
	expect(dl.binary.master).toEqual(
		expect.objectContaining({ fileName: f1.fileName, mimeType: 'video/quicktime' }),
	);
	expect(dl.binary.master.id).toMatch(/^filesystem/);

	// Enterprise: Search
	const found = json('E search limit');
	expect(found).toHaveLength(5);
	for (const v of found)
		expect(v).toEqual(
			expect.objectContaining({ id: expect.any(String), search_id: expect.any(String) }),
		);
	const recent = found.map((v) => simulator.getVideo(v.id).publishedAt);
	expect([...recent].sort((a, b) => b - a)).toEqual(recent);
	expect(
		json('E search all')
			.map((v) => v.id)
			.sort(),
	).toEqual([...unique].sort());

	// Enterprise: Get, Get Download (URL only, and the file), Usage
	const meta = json('E get')[0];
	const truth = simulator.getVideo(someId);
	expect(meta).toEqual(
		expect.objectContaining({
			id: someId,
			title: truth.title,
			keywords: truth.keywords,
			creator: expect.objectContaining({ username: truth.creator.username }),
		}),
	);
	const eurl = json('E url')[0];
	expect(eurl).toEqual(
		expect.objectContaining({
			video_id: someId,
			url: expect.stringContaining(simulator.storageUrl),
			expires_at: expect.any(String),
			file_size: simulator.getVideoFile(someId).size,
			format: expect.any(String),
		}),
	);
	expect(simulator.log.find((r) => r.path.endsWith(`${someId}/download`)).query.expires_in).toBe(
		'2',
	);
	const edl = n8n.itemsOf(run, 'E download')[0];
	const f4 = simulator.getVideoFile(unique[4]);
	expect(edl.json).toEqual(
		expect.objectContaining({ video_id: unique[4], fileSize: f4.size, fileName: f4.fileName }),
	);
	expect(edl.binary.data.id).toMatch(/^filesystem/);
	expect(simulator.log.find((r) => r.path.endsWith(`${unique[4]}/download`)).query.search_id).toBe(
		'srch_e2e',
	);
	expect(json('E usage')[0]).toEqual(
		expect.objectContaining({
			customer_id: expect.any(String),
			tier: expect.any(String),
			downloads_this_period: expect.any(Number),
		}),
	);

	assertNoSecret(run, sim.DEMO_PARTNER_KEY);
	assertNoSecret(run, sim.DEMO_ENTERPRISE_KEY);
});

test('errors as n8n users see them: per-item errors with "continue", and a failed run with a clear message and no key', async () => {
	const { sim, simulator, n8n } = s;
	const unlicensed = simulator.unlicensedVideoKey(sim.DEMO_PARTNER_KEY);
	const start = manualTrigger();
	const cont = { onError: 'continueRegularOutput' };
	const nodes = [
		partner('P not licensed', { operation: 'getDownloadUrl', videoKey: unlicensed }, cont),
		partner(
			'P unknown video',
			{ operation: 'getDownloadUrl', videoKey: 'no-such-video-e2e' },
			cont,
		),
		partner('P bad input', { operation: 'getDownloadUrl', videoKey: 'x'.repeat(51) }, cont),
		enterprise(
			'E unknown video',
			{ resource: 'video', operation: 'get', videoId: 'no-such-video-e2e' },
			cont,
		),
		enterprise(
			'E bad query',
			{ resource: 'video', operation: 'search', query: 'q'.repeat(201) },
			cont,
		),
	];
	const wf = workflow(
		'e2eErrorsContinue',
		'e2e: errors with continue',
		[start, ...nodes],
		fanOut(start, nodes),
	);

	const start2 = manualTrigger();
	const failing = partner(
		'List with a wrong key',
		{ operation: 'listContent', limit: 1 },
		{ credentials: BAD_PARTNER_CRED },
	);
	const wf2 = workflow(
		'e2eErrorsFail',
		'e2e: a run that fails',
		[start2, failing],
		[[start2.name, failing.name]],
	);
	await n8n.importWorkflows([wf, wf2]);
	simulator.clearLog();

	const run = await n8n.execute(wf.id);
	expect(run.ok ? '' : describeFailure(run)).toBe('');
	const err = (name) => n8n.itemsOf(run, name)[0].json.error;
	expect(err('P not licensed')).toMatch(new RegExp(`${unlicensed}.*not licensed`, 'i'));
	expect(err('P unknown video')).toMatch(/no video/i);
	expect(err('P bad input')).toMatch(/video key/i);
	expect(err('E unknown video')).toMatch(/no video/i);
	expect(err('E bad query')).toMatch(/200/);
	// Bad input is refused before any request: only the two "unknown"/"not licensed" Partner calls and one Enterprise get were sent.
	expect(
		simulator.log
			.filter((r) => r.target === 'api')
			.map((r) => r.path)
			.sort(),
	).toEqual(
		[
			`/partner/v1/videos/${unlicensed}/download`,
			'/partner/v1/videos/no-such-video-e2e/download',
			'/external/v1/videos/no-such-video-e2e',
		].sort(),
	);

	const failed = await n8n.execute(wf2.id);
	expect(failed.code).toBe(1);
	expect(failed.ok).toBe(false);
	expect(failed.error.message).toMatch(/key/i);
	expect(failed.execution.data.resultData.lastNodeExecuted).toBe('List with a wrong key');
	expect(failed.runData['List with a wrong key'][0].error.httpCode).toBe('401');
	assertNoSecret(failed, 'not-a-real-secret-0000');
	assertNoSecret(run, sim.DEMO_PARTNER_KEY);
});
