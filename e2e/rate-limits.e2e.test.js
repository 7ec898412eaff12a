'use strict';
/**
 * Issue 23 in a real n8n against a GridBank stand-in sending GridBank's rate-limit headers: a 429
 * with Retry-After: 3, X-RateLimit-Remaining: 0 and a Reset a minute ahead is retried after about
 * 3 s (not 60 s) by both action nodes (n8n execute) and by the trigger (published in n8n start);
 * a 200 with nothing left and a Reset an hour ahead delays the next request by at most about a
 * minute. Timings come from the simulator's request log.
 */
const path = require('node:path');
const {
	E2E_DIR,
	OWNER,
	openSession,
	manualTrigger,
	node,
	partner,
	enterprise,
	workflow,
	fanOut,
	describeFailure,
	PARTNER_CRED,
	PKG,
	rt,
} = require('./helpers');

const WF_429 = 'e2eRate429';
const WF_RESET = 'e2eRateReset';
const WF_TRIGGER = 'e2eRateTrigger';

let s;
beforeAll(async () => {
	s = await openSession();
	const start = manualTrigger();
	const list = partner('P list', { operation: 'listContent', returnAll: false, limit: 1 });
	const usage = enterprise('E usage', { resource: 'usage', operation: 'get' });
	const start2 = manualTrigger();
	const twoPages = partner('P two pages', {
		operation: 'listContent',
		returnAll: false,
		limit: 150,
	});
	const trigger = node(
		'GridBank Trigger',
		`${PKG}.gridBankPartnerTrigger`,
		{ pollTimes: { item: [{ mode: 'everyMinute' }] } },
		{ credentials: PARTNER_CRED },
	);
	await s.n8n.importWorkflows([
		workflow(
			WF_429,
			'e2e: 429 with Retry-After',
			[start, list, usage],
			fanOut(start, [list, usage]),
		),
		workflow(
			WF_RESET,
			'e2e: Reset an hour ahead',
			[start2, twoPages],
			[[start2.name, twoPages.name]],
		),
		workflow(WF_TRIGGER, 'e2e: trigger and Retry-After', [trigger], []),
	]);
}, 120_000);
afterAll(async () => {
	await s?.close();
});

const calls = (pathPart) =>
	s.simulator.log.filter((e) => e.target === 'api' && e.path.includes(pathPart));
const gap = (entries) => entries[1].at - entries[0].at;

/** GridBank's documented answer to a burst: 429, Retry-After 3, nothing left, the Reset a minute ahead. */
function burstRefusal(pathPart) {
	s.simulator.faults.failNext({ status: 429, count: 1, retryAfter: '3', path: pathPart });
	s.simulator.faults.rateHeaders({ remaining: 0, resetInSeconds: 60, path: pathPart });
}

test('Partner and Enterprise: a 429 with Retry-After: 3 and the rate headers is retried after about 3 s', async () => {
	s.simulator.faults.clear();
	s.simulator.clearLog();
	burstRefusal('/partner/v1/content');
	burstRefusal('/external/v1/usage/me');
	const run = await s.n8n.execute(WF_429);
	expect(run.ok ? '' : describeFailure(run)).toBe('');
	for (const pathPart of ['/partner/v1/content', '/external/v1/usage/me']) {
		const seen = calls(pathPart);
		expect(seen.map((e) => e.status)).toEqual([429, 200]);
		expect(gap(seen)).toBeGreaterThanOrEqual(2500);
		expect(gap(seen)).toBeLessThan(20_000);
		console.log(`${pathPart}: retried ${gap(seen)} ms after the 429`);
	}
	expect(s.n8n.itemsOf(run, 'P list')).toHaveLength(1);
	expect(s.n8n.itemsOf(run, 'E usage')).toHaveLength(1);
});

test('the Partner Trigger, published: its poll retries a 429 with Retry-After: 3 after about 3 s', async () => {
	s.simulator.faults.clear();
	s.simulator.clearLog();
	burstRefusal('/partner/v1/content');
	await s.n8n.cli(rt.activateWorkflowArgs(WF_TRIGGER));
	const server = await rt.startServer(s.n8n, {
		port: await rt.freePort(),
		owner: OWNER,
		logFile: path.join(E2E_DIR, 'n8n-server-rate-limits.log'),
	});
	try {
		// n8n polls once when it activates the published workflow at start-up.
		const deadline = Date.now() + 120_000;
		while (calls('/partner/v1/content').length < 2 && Date.now() < deadline)
			await new Promise((r) => setTimeout(r, 250));
	} finally {
		await server.stop();
		// Unpublished again, so no later n8n start of this user folder polls on its own.
		await s.n8n.cli(
			rt.N8N_MAJOR >= 2
				? ['unpublish:workflow', `--id=${WF_TRIGGER}`]
				: ['update:workflow', `--id=${WF_TRIGGER}`, '--active=false'],
		);
	}
	const seen = calls('/partner/v1/content');
	expect(seen.slice(0, 2).map((e) => e.status)).toEqual([429, 200]);
	expect(gap(seen)).toBeGreaterThanOrEqual(2500);
	expect(gap(seen)).toBeLessThan(20_000);
	console.log(`trigger: retried ${gap(seen)} ms after the 429`);
}, 240_000);

test('a 200 with nothing left and a Reset an hour ahead delays the next request by at most about a minute', async () => {
	s.simulator.faults.clear();
	s.simulator.clearLog();
	s.simulator.faults.rateHeaders({
		remaining: 0,
		resetInSeconds: 3600,
		path: '/partner/v1/content',
	});
	const run = await s.n8n.execute(WF_RESET);
	expect(run.ok ? '' : describeFailure(run)).toBe('');
	expect(s.n8n.itemsOf(run, 'P two pages')).toHaveLength(150);
	const seen = calls('/partner/v1/content');
	expect(seen.map((e) => e.status)).toEqual([200, 200]);
	expect(gap(seen)).toBeLessThan(65_000);
	console.log(`Reset an hour ahead: next request ${gap(seen)} ms later`);
}, 180_000);
