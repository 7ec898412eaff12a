'use strict';
/**
 * Issue 33, item 5: both triggers (Partner and Enterprise, Download File on) through n8n's own
 * workflow lifecycle in a real n8n (`n8n start`), without and with durable poll cursors:
 * published; deactivated and re-activated; edited and saved (republished); `n8n import:workflow`
 * of the same workflows over the running instance; killed during a download and restarted. Each
 * trigger has its own workflow, both in the same n8n, and every step is applied to both at once.
 * After each, every video licensed (Partner) or newly matching the search (Enterprise) meanwhile
 * is delivered once and none is lost, and nothing else is delivered (licences that existed, videos
 * that matched before publishing). Delivered = its download-URL request, which the trigger makes
 * once per emitted video (the simulator's log counts them).
 */
const fs = require('node:fs');
const path = require('node:path');
const {
	E2E_DIR,
	OWNER,
	PKG,
	PARTNER_CRED,
	ENTERPRISE_CRED,
	openSession,
	rt,
	waitFor,
	workflow,
	node,
} = require('./helpers');

const DEMO_KEY = 'apik_demo.gridbank-partner-demo';
/**
 * A poll every 10 seconds: six poll times, each a minute cron on its own fixed second. n8n refuses
 * a sub-minute cron (n8n-workflow's isSubMinuteCron: anything but one number in the seconds field,
 * so `0,20,40 * * * * *` too) but takes several minute crons, on its legacy timer (one cron each)
 * and with the durable scheduler (one scheduled job each). A tick that comes while the node still
 * polls returns at once (nodes/shared/trigger/poll-guard.ts), so polls never overlap.
 */
const POLL_TIMES = {
	item: [0, 10, 20, 30, 40, 50].map((second) => ({
		mode: 'custom',
		cronExpression: `${second} * * * * *`,
	})),
};
/** Each wait allows several polls (or an n8n start). */
const WAIT = { timeoutMs: 90_000, everyMs: 250 };
const DURABLE = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	// GRIDBANK_E2E_DEBUG=1: n8n's debug log (scheduler, cursor commits, publication outbox) in .cache/e2e.
	...(process.env.GRIDBANK_E2E_DEBUG === '1' ? { N8N_LOG_LEVEL: 'debug' } : {}),
};
const CONFIGS = [
	['legacy polling', {}, 'legacy'],
	['durable poll cursors', DURABLE, 'durable'],
];

let s;
let server;

/**
 * Durable scheduler: the poll tasks of these workflows in n8n's database (its SQLite file, read
 * with the sqlite3 module n8n itself uses): those given by `ids`, else those it holds as running.
 */
async function pollTasks(workflowIds, ids) {
	const sqlite3 = require(path.join(rt.CACHE_DIR, 'node_modules', 'sqlite3'));
	const file = path.join(s.n8n.userFolder, '.n8n', 'database.sqlite');
	const db = await new Promise((resolve, reject) => {
		const d = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (e) =>
			e ? reject(e) : resolve(d),
		);
	});
	try {
		const rows = await new Promise((resolve, reject) =>
			db.all('SELECT id, payload, status, attempts FROM scheduled_task', (e, r) =>
				e ? reject(e) : resolve(r),
			),
		);
		return rows
			.map((r) => ({ ...r, workflowId: JSON.parse(r.payload).workflowId }))
			.filter((r) => workflowIds.includes(r.workflowId))
			.filter((r) => (ids ? ids.includes(r.id) : r.status === 'running'));
	} finally {
		await new Promise((resolve) => db.close(resolve));
	}
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const count = (match) => s.simulator.log.filter((e) => e.target === 'api' && match(e)).length;
const downloadPath = (prefix, id) => `${prefix}/videos/${encodeURIComponent(id)}/download`;
const DOWNLOAD_URL = /^\/(partner\/v1|external\/v1)\/videos\/[^/]+\/download$/;

/** The Partner Trigger's workflow: each video the demo account licenses from now on. */
function partnerTrigger(id, label) {
	const trigger = node(
		'Licensed',
		`${PKG}.gridBankPartnerTrigger`,
		{ pollTimes: POLL_TIMES, download: true },
		{ credentials: PARTNER_CRED },
	);
	// Bought an hour ago (settled), as the earlier lifecycle runs did.
	const settled = () => Math.floor(Date.now() / 1000) - 3600;
	return {
		name: 'Partner',
		wf: workflow(id, `Trigger lifecycle: Partner (${label})`, [trigger], []),
		polls: () => count((e) => e.path === '/partner/v1/content'),
		delivered: (key) => count((e) => e.path === downloadPath('/partner/v1', key)),
		deliveredAll: () =>
			count((e) => e.path.startsWith('/partner/v1/') && DOWNLOAD_URL.test(e.path)),
		add: (n) => s.simulator.addPartnerLicences(DEMO_KEY, n, { purchasedAt: settled() }),
	};
}

/** The Enterprise Trigger's workflow: each video that newly matches its search. */
function enterpriseTrigger(id, label, word) {
	const query = `gbcycle ${word}`;
	const trigger = node(
		'New footage',
		`${PKG}.gridBankEnterpriseTrigger`,
		{ pollTimes: POLL_TIMES, query, download: true },
		{ credentials: ENTERPRISE_CRED },
	);
	let n = 0;
	return {
		name: 'Enterprise',
		wf: workflow(id, `Trigger lifecycle: Enterprise (${label})`, [trigger], []),
		polls: () => count((e) => e.path === '/external/v1/videos/search' && e.query.q === query),
		delivered: (vid) => count((e) => e.path === downloadPath('/external/v1', vid)),
		deliveredAll: () =>
			count((e) => e.path.startsWith('/external/v1/') && DOWNLOAD_URL.test(e.path)),
		// Newest of the collection (published now), matching no other run's search.
		add: (k) =>
			s.simulator.addEnterpriseVideos(
				Array.from({ length: k }, () => ({
					title: `Gbcycle ${word} clip ${++n}`,
					keywords: ['gbcycle', word],
				})),
			),
	};
}

async function start(name, env) {
	server = await rt.startServer(s.n8n, {
		port: await rt.freePort(),
		owner: OWNER,
		logFile: path.join(E2E_DIR, `n8n-server-trigger-lifecycle-${name}.log`),
		extraEnv: env,
	});
}
const publish = async (id) => {
	const current = await server.rest('GET', `/workflows/${id}`);
	await server.rest('POST', `/workflows/${id}/activate`, { versionId: current.versionId });
};

const triggersOf = {};
for (const [label, , word] of CONFIGS) {
	const suffix = word === 'legacy' ? 'L' : 'D';
	triggersOf[label] = [
		partnerTrigger(`gbCyclePartner${suffix}`, label),
		enterpriseTrigger(`gbCycleEnterpr${suffix}`, label, word),
	];
}

beforeAll(async () => {
	s = await openSession();
	// Every configuration's workflows in one CLI run (each CLI run starts n8n's CLI: seconds).
	if (rt.N8N_MAJOR >= 2)
		await s.n8n.importWorkflows(Object.values(triggersOf).flatMap((ts) => ts.map((t) => t.wf)));
}, 240_000);

afterAll(async () => {
	await server?.stop();
	await s?.close();
}, 120_000);

// n8n 2.x's lifecycle (publication, durable cursors) is what the issue asks about; on n8n 1.x the
// same run would add minutes to CI for what the legacy path of 2.x already proves.
(rt.N8N_MAJOR >= 2 ? describe.each(CONFIGS) : describe.skip.each(CONFIGS))(
	'%s',
	(label, env, word) => {
		const triggers = triggersOf[label];
		const ids = triggers.map((t) => t.wf.id);
		const all = new Map(triggers.map((t) => [t, []]));
		const deliveredBefore = new Map();
		const at = async (fn) => await Promise.all(triggers.map(fn));

		/** Adds `n` new videos for each trigger; returns them by trigger. */
		const addEach = (n) =>
			new Map(
				triggers.map((t) => {
					const added = t.add(n);
					all.get(t).push(...added);
					return [t, added];
				}),
			);
		/**
		 * Every video so far delivered once, and nothing else (`twice`: delivered twice). A repeat of
		 * an earlier video would come with the poll that delivers the newest ones (each step's poll
		 * follows the last one's), and the run ends with one more poll of each trigger, so no step
		 * waits for a poll of its own.
		 */
		const expectOnly = (twice = new Map()) => {
			for (const t of triggers) {
				const again = twice.get(t) ?? [];
				for (const id of all.get(t))
					expect([t.name, id, t.delivered(id)]).toEqual([t.name, id, again.includes(id) ? 2 : 1]);
				expect([t.name, t.deliveredAll() - deliveredBefore.get(t)]).toEqual([
					t.name,
					all.get(t).length + again.length,
				]);
			}
		};
		const expectOnce = async (what, added) => {
			await waitFor(
				what,
				() => triggers.every((t) => added.get(t).every((id) => t.delivered(id) >= 1)),
				WAIT,
			);
			await sleep(2000);
			expectOnly();
		};

		let unpublished = false;
		afterAll(async () => {
			// After a failure: unpublished again, so no later n8n start of this user folder polls on its own.
			if (!unpublished && server?.child.exitCode === null)
				await at((t) => server.rest('POST', `/workflows/${t.wf.id}/deactivate`, {}));
			await server?.stop();
			server = undefined;
			if (!unpublished)
				for (const t of triggers) await s.n8n.cli(['unpublish:workflow', `--id=${t.wf.id}`]);
		}, 180_000);

		test('both triggers published, deactivated and re-activated, republished, re-imported, killed mid-download: every video once', async () => {
			for (const t of triggers) deliveredBefore.set(t, t.deliveredAll());
			// Matched the Enterprise search before publishing: only noted, never delivered.
			const [, enterprise] = triggers;
			const noted = enterprise.add(3);
			await start(`${word}-1`, env);
			const before = triggers.map((t) => t.polls());
			await at((t) => publish(t.wf.id));
			// With durable cursors, n8n keeps the state of the poll it runs on activation only when that
			// poll emits (n8n-core poll-trigger-executor.js: no commitStagedCursor for a testing poll):
			// what exists is noted for good by the first scheduled poll, so new videos come after it.
			const firstPolls = env === DURABLE ? 2 : 1;
			await waitFor(
				'the first poll of each trigger that keeps its state',
				() => triggers.every((t, i) => t.polls() >= before[i] + firstPolls),
				WAIT,
			);

			await expectOnce('the first new videos', addEach(2));

			// Deactivated: a video that comes meanwhile is delivered once after re-activation.
			await at((t) => server.rest('POST', `/workflows/${t.wf.id}/deactivate`, {}));
			const whileOff = addEach(1);
			await at((t) => publish(t.wf.id));
			await expectOnce('the videos that came while deactivated', whileOff);

			// Edited and saved, then published again.
			await at(async (t) => {
				const edited = await server.rest('GET', `/workflows/${t.wf.id}`);
				const nodes = edited.nodes.map((n) => ({
					...n,
					position: [n.position[0] + 20, n.position[1]],
				}));
				const saved = await server.rest('PATCH', `/workflows/${t.wf.id}`, {
					nodes,
					connections: edited.connections,
					versionId: edited.versionId,
				});
				await server.rest('POST', `/workflows/${t.wf.id}/activate`, {
					versionId: saved.versionId,
				});
			});
			await expectOnce('the videos that came after the republish', addEach(1));

			// The same workflows imported over the running instance (one file, no staticData), then
			// published once n8n has applied the import's unpublish: published sooner, that unpublish
			// is merged into the publish and the poll job the CLI deleted is never made again (n8n's
			// race, docs/triggers.md). The CLI runs with the server's settings, as on a real installation.
			const file = path.join(E2E_DIR, `trigger-lifecycle-${word}.json`);
			fs.writeFileSync(file, JSON.stringify(triggers.map((t) => t.wf)));
			await s.n8n.cli(['import:workflow', `--input=${file}`], { env });
			await waitFor(
				"n8n to apply the import's unpublish",
				async () =>
					(await at((t) => server.rest('GET', `/workflows/${t.wf.id}/publication-status`))).every(
						(status) => status.pendingVersionId === null,
					),
				WAIT,
			);
			await at((t) => publish(t.wf.id));
			await expectOnce('the videos that came after the re-import', addEach(1));

			// Killed during both downloads: the poll saved nothing, so the restart delivers each once.
			const slow = addEach(1);
			for (const [, [id]] of slow) s.simulator.setVideoFile(id, { size: 8 * 1024 * 1024 });
			s.simulator.faults.slowDownload(256 * 1024);
			const master = (id) => `/${encodeURIComponent(id)}`;
			await waitFor(
				'both downloads to start',
				() =>
					[...slow.values()].every(([id]) =>
						s.simulator.log.some((e) => e.target === 'storage' && e.path.endsWith(master(id))),
					),
				{ ...WAIT, everyMs: 100 },
			);
			server.child.kill('SIGKILL');
			await new Promise((r) => server.child.once('exit', r));
			s.simulator.faults.slowDownload(0);
			// With durable cursors the killed polls are scheduled tasks n8n's database holds as running.
			const killed = env === DURABLE ? await pollTasks(ids) : [];
			if (env === DURABLE)
				expect([...new Set(killed.map((r) => r.workflowId))].sort()).toEqual([...ids].sort());
			await start(`${word}-2`, env);
			await waitFor(
				'the killed polls repeated',
				() => triggers.every((t) => t.delivered(slow.get(t)[0]) >= 2),
				WAIT,
			);
			const seen = triggers.map((t) => t.polls());
			await waitFor(
				'one more poll of each trigger after the restart',
				() => triggers.every((t, i) => t.polls() > seen[i]),
				WAIT,
			);
			if (env === DURABLE) {
				// Their leases run out (N8N_SCHEDULER_LEASE_DURATION, 60 s), n8n's reaper hands them back
				// and they run again: each such re-run reads the cursor as committed since, emitting nothing.
				const again = async () =>
					await pollTasks(
						ids,
						killed.map((r) => r.id),
					);
				await waitFor(
					"the killed polls' tasks run again",
					async () => (await again()).every((r) => !['running', 'pending'].includes(r.status)),
					{ timeoutMs: 240_000, everyMs: 1000 },
				);
				const rerun = await again();
				expect(rerun).toHaveLength(killed.length);
				for (const r of rerun)
					expect([r.workflowId, r.status, r.attempts]).toEqual([r.workflowId, 'succeeded', 1]);
			}
			await sleep(2000);
			// The killed poll's delivery never reached the workflow: the one after the restart is the only one emitted.
			expectOnly(new Map(triggers.map((t) => [t, slow.get(t)])));
			for (const id of noted) expect([id, enterprise.delivered(id)]).toEqual([id, 0]);

			await at((t) => server.rest('POST', `/workflows/${t.wf.id}/deactivate`, {}));
			unpublished = true;
			await server.stop();
		}, 600_000);
	},
);
