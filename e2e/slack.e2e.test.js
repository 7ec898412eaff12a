'use strict';
/**
 * n8n's own Slack node (n8n-nodes-base.slack 2.3, the version the examples use, with a Slack API
 * "Access Token" credential holding a bot token) posting what our Partner node listed, in the
 * real n8n. The node calls https://slack.com/api/chat.postMessage as it would in production;
 * n8n sends that through HTTPS_PROXY to scripts/services/slack-standin.js, which ends TLS for slack.com
 * with a local CA n8n trusts (NODE_EXTRA_CA_CERTS) and records the message. What is asserted
 * is what arrived at "Slack", not what n8n meant to send.
 */
const path = require('node:path');
const {
	openSession,
	partner,
	manualTrigger,
	node,
	workflow,
	describeFailure,
	E2E_DIR,
	OWNER,
	rt,
} = require('./helpers');
const { startSlackStandIn } = require('../scripts/services/slack-standin');

const SLACK_CRED = { slackApi: { id: 'slackStandInCred1', name: 'Slack account' } };
const WRONG_SLACK_CRED = { slackApi: { id: 'slackWrongToken01', name: 'Slack (wrong token)' } };

function slackPost(name, credentials, text) {
	return node(
		name,
		'n8n-nodes-base.slack',
		{
			select: 'channel',
			channelId: { __rl: true, value: '#video-masters', mode: 'name' },
			text,
			otherOptions: {},
		},
		{ typeVersion: 2.3, credentials },
	);
}

const TEXT =
	'=New GridBank master: {{ $json.title }} ({{ $json.video_key }}), licensed {{ $json.purchased_at }}';

let s;
let slack;
beforeAll(async () => {
	s = await openSession();
	slack = await startSlackStandIn({ dir: path.join(E2E_DIR, '..', 'slack-standin') });
	await s.n8n.importCredentials([
		slack.credential(SLACK_CRED.slackApi.id, SLACK_CRED.slackApi.name),
		{
			...slack.credential(WRONG_SLACK_CRED.slackApi.id, WRONG_SLACK_CRED.slackApi.name),
			data: { accessToken: 'xoxb-0000000000-wrong-token' },
		},
	]);
	const start = manualTrigger();
	const list = partner('List licences', { operation: 'listContent', returnAll: false, limit: 2 });
	const post = slackPost('Post to Slack', SLACK_CRED, TEXT);
	const start2 = manualTrigger('Start wrong');
	const list2 = partner('List one', { operation: 'listContent', returnAll: false, limit: 1 });
	const bad = slackPost('Post with wrong token', WRONG_SLACK_CRED, TEXT);
	// Each workflow a chain: trigger -> list -> Slack.
	const chain = (id, name, nodes) =>
		workflow(
			id,
			name,
			nodes,
			nodes.slice(1).map((n, i) => [nodes[i].name, n.name]),
		);
	await s.n8n.importWorkflows([
		chain('e2eSlackPost0001', 'e2e: Slack', [start, list, post]),
		chain('e2eSlackWrong001', 'e2e: Slack wrong token', [start2, list2, bad]),
	]);
});
afterAll(async () => {
	await slack?.close();
	await s?.close();
});

test("n8n's Slack node reaches the Slack stand-in through n8n's proxy setting: one message per listed licence, in the channel, with the video's title and key", async () => {
	const before = slack.messages.length;
	const run = await s.n8n.execute('e2eSlackPost0001', { env: slack.n8nEnv });
	expect(run.ok ? '' : describeFailure(run)).toBe('');
	const listed = s.n8n.itemsOf(run, 'List licences').map((i) => i.json);
	expect(listed).toHaveLength(2);

	const arrived = slack.messages.slice(before);
	expect(arrived).toHaveLength(2);
	arrived.forEach((m, i) => {
		expect(m.channel).toBe('#video-masters');
		expect(m.text).toContain(
			`New GridBank master: ${listed[i].title} (${listed[i].video_key}), licensed ${listed[i].purchased_at}`,
		);
	});
	// Every call carried the credential's bot token; the node's output is Slack's answer.
	const calls = slack.requests.filter((r) => r.method === 'chat.postMessage');
	expect(calls.slice(-2).every((r) => r.authorized && r.httpMethod === 'POST')).toBe(true);
	const out = s.n8n.itemsOf(run, 'Post to Slack').map((i) => i.json);
	expect(out.map((o) => o.message_timestamp)).toEqual(arrived.map((m) => m.ts));
	expect(out.every((o) => o.ok === true && o.channel === arrived[0].channelId)).toBe(true);
});

test('a wrong bot token: the stand-in answers invalid_auth as Slack does, the run fails at the Slack node and nothing is posted', async () => {
	const before = slack.messages.length;
	const run = await s.n8n.execute('e2eSlackWrong001', { env: slack.n8nEnv });
	expect(run.ok).toBe(false);
	expect(run.execution?.data?.resultData?.lastNodeExecuted).toBe('Post with wrong token');
	expect(JSON.stringify(run.error ?? {})).toContain('invalid_auth');
	expect(slack.messages.length).toBe(before);
	expect(slack.requests.some((r) => r.method === 'chat.postMessage' && !r.authorized)).toBe(true);
});

test("in `n8n start` too: n8n's own test of the Slack credential reaches the stand-in (users.profile.get) and passes; a wrong token fails", async () => {
	const server = await rt.startServer(s.n8n, {
		port: await rt.freePort(),
		owner: OWNER,
		logFile: path.join(E2E_DIR, 'n8n-server-slack.log'),
		extraEnv: slack.n8nEnv,
	});
	try {
		const test1 = (accessToken) =>
			server.rest('POST', '/credentials/test', {
				credentials: {
					id: 'slackStandInCred1',
					name: 'e2e',
					type: 'slackApi',
					data: { accessToken },
				},
			});
		const before = slack.requests.length;
		expect(await test1(slack.token)).toEqual(expect.objectContaining({ status: 'OK' }));
		expect((await test1('xoxb-0000000000-wrong-token')).status).toBe('Error');
		expect(slack.requests.slice(before).map((r) => [r.method, r.authorized])).toEqual([
			['users.profile.get', true],
			['users.profile.get', false],
		]);
	} finally {
		await server.stop();
	}
});
