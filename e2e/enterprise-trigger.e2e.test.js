'use strict';
/**
 * examples/enterprise-trigger-new-footage.json as shipped (S3 and Slack included; it polls every
 * minute, n8n's shortest interval, instead of every five), published in a real n8n (`n8n start`):
 * the activation poll only notes what matches; each video that newly matches lands in the bucket
 * once (key, size, SHA-256 through the S3 API) and is announced in Slack; one whose download fails
 * goes to the Slack warning, not the bucket; n8n is stopped, a video appears while it is down, and
 * after the restart that video comes once and none of the earlier ones again.
 */
const path = require('node:path');
const { E2E_DIR, OWNER, PKG, openSession, rt, waitFor } = require('./helpers');
const { expectMastersInBucket, expectAnnounced } = require('./job-checks');
const { FOOTAGE_BUCKET, FOOTAGE_PREFIX } = require('../scripts/services/job-services');

const EXAMPLE = 'enterprise-trigger-new-footage.json';
const WHERE = { bucket: FOOTAGE_BUCKET, prefix: FOOTAGE_PREFIX };
/** The example's search words; a per-run tag makes each added title unique in Slack's text. */
const QUERY = 'drone city';
const TAG = `run${Date.now().toString(36)}`;

let s;
let server;
let wf;

/** n8n's poll schedule is a minute: each wait allows two and a half. */
const WAIT = { timeoutMs: 150_000, everyMs: 1000 };

/** The trigger's searches the simulator answered. */
const polls = () =>
	s.simulator.log.filter(
		(e) => e.target === 'api' && e.path === '/external/v1/videos/search' && e.query.q === QUERY,
	).length;
/** Slack messages of this test (the stand-in keeps those of earlier test files). */
let slackFrom = 0;
const slack = () => s.job.slack.messages.slice(slackFrom);
const slackText = () =>
	slack()
		.map((m) => m.text)
		.join('\n');
/** How many Slack lines name `title` (a video announced or warned about twice would show). */
const mentions = (title) => slackText().split(`*${title}*`).length - 1;

let n = 0;
const titles = {};
/** New videos the example's search matches (its words, at most 2 minutes), newest of all. */
const add = (count) => {
	const ids = s.simulator.addEnterpriseVideos(
		Array.from({ length: count }, () => ({
			title: `${QUERY} ${TAG} clip ${++n}`,
			keywords: ['drone', 'city'],
			duration: 60,
		})),
	);
	for (const id of ids) titles[id] = s.simulator.getVideo(id).title;
	return ids;
};

const start = async (name) => {
	server = await rt.startServer(s.n8n, {
		port: await rt.freePort(),
		owner: OWNER,
		logFile: path.join(E2E_DIR, `n8n-server-enterprise-trigger-${name}.log`),
		extraEnv: s.job.n8nEnv, // the example's Slack nodes reach the stand-in
	});
};

beforeAll(async () => {
	s = await openSession();
	wf = rt.loadExample(EXAMPLE);
	const trigger = wf.nodes.find((x) => x.type === `${PKG}.gridBankEnterpriseTrigger`);
	trigger.parameters.pollTimes = { item: [{ mode: 'everyMinute' }] };
	await s.n8n.importWorkflows([wf]);
	await s.n8n.cli(rt.activateWorkflowArgs(wf.id));
}, 240_000);

afterAll(async () => {
	await server?.stop();
	// Unpublished again, so no later n8n start of this user folder polls on its own.
	await s?.n8n.cli(
		rt.N8N_MAJOR >= 2
			? ['unpublish:workflow', `--id=${wf.id}`]
			: ['update:workflow', `--id=${wf.id}`, '--active=false'],
	);
	await s?.close();
}, 120_000);

test('example published: notes what matches; each new match lands in the bucket once and is announced in Slack, an undeliverable one is warned about; also across a restart', async () => {
	slackFrom = s.job.slack.messages.length;
	await start('first');
	await waitFor('the activation poll', () => polls() >= 1, WAIT);
	await new Promise((r) => setTimeout(r, 3000));
	expect(slack()).toEqual([]); // what already matched is only noted

	const [broken, ...good] = add(3);
	// GridBank no longer has the file of one of them: it comes with downloadError.
	s.simulator.faults.failNext({
		status: 404,
		path: `/external/v1/videos/${encodeURIComponent(broken)}/download`,
		count: 100,
	});
	await waitFor(
		'the next scheduled poll to store two, announce them and warn about one',
		() => mentions(titles[broken]) && good.every((id) => mentions(titles[id])),
		WAIT,
	);
	const stored = await expectMastersInBucket(s, good, WHERE);
	const listed = (await s.job.objects(`${FOOTAGE_PREFIX}/`, FOOTAGE_BUCKET)).map((o) => o.key);
	expect(listed.some((k) => k.includes(`/${broken}/`))).toBe(false);
	expect(slack().map((m) => m.channel)).toEqual(['#newsroom-footage', '#newsroom-footage']);
	const backup = slack().find((m) => m.text.includes('stored in S3'));
	const warning = slack().find((m) => m.text.includes('NOT stored'));
	expect(backup.text).toContain('2 new clips matching your GridBank search');
	expectAnnounced(backup.text, stored, titles, FOOTAGE_BUCKET, { withSha256: true });
	expect(warning.text).toContain(`*${titles[broken]}* (${broken}): `);
	for (const id of good) expect(warning.text).not.toContain(id);
	await server.stop();

	const during = add(1); // appears while n8n is down
	const pollsBefore = polls();
	await start('restarted');
	await waitFor(
		'the video that appeared during the restart',
		() => mentions(titles[during[0]]),
		WAIT,
	);
	await expectMastersInBucket(s, during, WHERE);
	// One more poll on the schedule after that: nothing comes twice.
	const seen = polls();
	await waitFor('one more scheduled poll', () => polls() > seen, WAIT);
	await new Promise((r) => setTimeout(r, 5000));
	expect(polls()).toBeGreaterThan(pollsBefore);
	for (const id of [broken, ...good, ...during])
		expect([id, mentions(titles[id])]).toEqual([id, 1]);
	expect(slack()).toHaveLength(3);
}, 600_000);
