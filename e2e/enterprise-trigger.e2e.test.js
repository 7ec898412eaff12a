'use strict';
/**
 * The GridBank Enterprise Trigger published in a real n8n (`n8n start`), polling on n8n's own
 * schedule: the activation poll only notes what matches; each video that newly matches is
 * emitted once with its file; n8n is stopped, a video appears while it is down, and after the
 * restart that video comes once and none of the earlier ones again.
 */
const fs = require('node:fs');
const path = require('node:path');
const {
	E2E_DIR,
	ENTERPRISE_CRED,
	OWNER,
	PKG,
	node,
	openSession,
	workflow,
	rt,
	waitFor,
} = require('./helpers');

const WF = 'e2eEntTrigger';
/** A word no seeded video has: the search matches only what this test adds. */
const WORD = 'zyxfootage';

let s;
let folder;
let server;

/** n8n's poll schedule is a minute: each wait allows two and a half. */
const WAIT = { timeoutMs: 150_000, everyMs: 1000 };

/** The trigger's searches the simulator answered. */
const polls = () =>
	s.simulator.log.filter(
		(e) => e.target === 'api' && e.path === '/external/v1/videos/search' && e.query.q === WORD,
	).length;
/** Files written so far, one per emitted video and execution: `<video id>--<execution id>`. */
const written = () => fs.readdirSync(folder).sort();
const idsWritten = () => written().map((name) => name.split('--')[0]);

let clock = Date.now() - 3_600_000;
const add = (n) =>
	s.simulator.addEnterpriseVideos(
		Array.from({ length: n }, (_, i) => ({
			title: `${WORD} clip ${i}`,
			keywords: [WORD],
			publishedAt: (clock += 1000),
		})),
	);

const start = async (name) => {
	server = await rt.startServer(s.n8n, {
		port: await rt.freePort(),
		owner: OWNER,
		logFile: path.join(E2E_DIR, `n8n-server-enterprise-trigger-${name}.log`),
	});
};

beforeAll(async () => {
	s = await openSession();
	folder = path.join(s.state.filesFolder, 'enterprise-trigger');
	fs.rmSync(folder, { recursive: true, force: true });
	fs.mkdirSync(folder, { recursive: true });
	const trigger = node(
		'New footage',
		`${PKG}.gridBankEnterpriseTrigger`,
		{
			pollTimes: { item: [{ mode: 'everyMinute' }] },
			query: WORD,
			download: true,
			binaryPropertyName: 'data',
		},
		{ credentials: ENTERPRISE_CRED },
	);
	const write = node('Write to disk', 'n8n-nodes-base.readWriteFile', {
		operation: 'write',
		fileName: `=${folder}/{{ $json.id }}--{{ $execution.id }}`,
		dataPropertyName: 'data',
		options: {},
	});
	await s.n8n.importWorkflows([
		workflow(WF, 'e2e: Enterprise Trigger', [trigger, write], [[trigger.name, write.name]]),
	]);
	add(3);
	await s.n8n.cli(rt.activateWorkflowArgs(WF));
}, 240_000);

afterAll(async () => {
	await server?.stop();
	// Unpublished again, so no later n8n start of this user folder polls on its own.
	await s?.n8n.cli(
		rt.N8N_MAJOR >= 2
			? ['unpublish:workflow', `--id=${WF}`]
			: ['update:workflow', `--id=${WF}`, '--active=false'],
	);
	await s?.close();
}, 120_000);

test('published: notes what matches, emits each new match once with its file, also across a restart', async () => {
	await start('first');
	await waitFor('the activation poll', () => polls() >= 1, WAIT);
	await new Promise((r) => setTimeout(r, 3000));
	expect(written()).toEqual([]); // what already matched is only noted

	const before = add(2);
	await waitFor(
		'the next scheduled poll to write the two new videos',
		() => written().length >= 2,
		WAIT,
	);
	await server.stop();

	const during = add(1); // appears while n8n is down
	const pollsBefore = polls();
	await start('restarted');
	await waitFor(
		'the video that appeared during the restart',
		() => idsWritten().includes(during[0]),
		WAIT,
	);
	// One more poll on the schedule after that: nothing comes twice.
	const seen = polls();
	await waitFor('one more scheduled poll', () => polls() > seen, WAIT);
	await new Promise((r) => setTimeout(r, 5000));
	expect(polls()).toBeGreaterThan(pollsBefore);
	expect(idsWritten().sort()).toEqual([...before, ...during].sort());
	for (const name of written()) {
		const id = name.split('--')[0];
		expect(fs.statSync(path.join(folder, name)).size).toBe(s.simulator.getVideoFile(id).size);
	}
}, 600_000);
