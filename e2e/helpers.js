'use strict';
/**
 * Shared by the e2e test files: the n8n instance global-setup prepared, the simulator, and the
 * workflow builders (scripts/n8n/workflow-builders.js, which the benchmark and the queue suite use too).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const rt = require('../scripts/n8n/n8n-runtime');
const { startJobServices } = require('../scripts/services/job-services');
const builders = require('../scripts/n8n/workflow-builders');

// One folder and one artifacts folder per n8n version (.cache/e2e and e2e-artifacts for 2.41.1,
// .cache/e2e-1.123.81 and e2e-artifacts-1.123.81 for the n8n 1.x run), so CI runs both at once.
const E2E_DIR = path.join(rt.ROOT, '.cache', `e2e${rt.VERSION_SUFFIX}`);
const STATE_FILE = path.join(E2E_DIR, 'state.json');
const ARTIFACTS = path.join(rt.ROOT, `e2e-artifacts${rt.VERSION_SUFFIX}`);
/** Debian's Chromium; GRIDBANK_CHROMIUM names another build (Ubuntu has no chromium deb: CI on GitHub's runners uses their Chrome). */
const CHROMIUM = process.env.GRIDBANK_CHROMIUM || '/usr/bin/chromium';
/**
 * Examples started by a GridBank trigger, not by `n8n execute`, with the type of their start
 * node. Run published: the Partner backup by `n8n start` (editor.e2e.test.js), the queue-mode one
 * in the queue suite (e2e/queue/), the Enterprise one in enterprise-trigger.e2e.test.js.
 */
const TRIGGER_EXAMPLE_STARTS = {
	'partner-trigger-backup.json': `${builders.PKG}.gridBankPartnerTrigger`,
	'partner-trigger-queue-backup.json': `${builders.PKG}.gridBankPartnerTrigger`,
	'enterprise-trigger-new-footage.json': `${builders.PKG}.gridBankEnterpriseTrigger`,
};
const TRIGGER_EXAMPLES = Object.keys(TRIGGER_EXAMPLE_STARTS);

/**
 * The instance global-setup prepared, plus a simulator and the examples' S3 server started in
 * this test file's process on the ports the credentials point at (files run one at a time, so
 * the ports are free). The bucket's objects stay in .cache/e2e/job/ from file to file.
 */
async function openSession(simOptions = {}) {
	const state = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
	const sim = await rt.loadSimulator();
	const simulator = await sim.startSimulator({
		port: state.simPort,
		storagePort: 0,
		...simOptions,
	});
	const n8n = await rt.createInstance({
		userFolder: state.userFolder,
		filesFolder: state.filesFolder,
		fresh: false,
	});
	const job = await startJobServices({ dir: path.join(E2E_DIR, 'job'), s3Port: state.s3Port });
	const close = () => Promise.all([simulator.close(), job.close()]);
	return { state, sim, simulator, n8n, job, close };
}

function sha256File(file) {
	return new Promise((resolve, reject) => {
		const h = crypto.createHash('sha256');
		fs.createReadStream(file)
			.on('data', (d) => h.update(d))
			.on('end', () => resolve(h.digest('hex')))
			.on('error', reject);
	});
}

/**
 * A readable failure message for a run that should have succeeded. A process ended by a signal
 * (exit code null) says which, and what n8n's execution itself reported, if it printed one.
 */
function describeFailure(result) {
	const e = result.error ?? {};
	const exit = result.code ?? `by signal ${result.signal}`;
	const status = result.execution ? `, execution ${result.execution.status}` : '';
	return `n8n run failed (exit ${exit}${status}): ${e.message ?? ''} ${e.description ?? ''}\n${(result.stderr ?? '').slice(-1500)}`;
}

/** The run data must not contain `secret` anywhere (items, errors, descriptions). */
function assertNoSecret(result, secret) {
	const text = JSON.stringify(result.execution ?? {}) + JSON.stringify(result.logs ?? []);
	if (text.includes(secret))
		throw new Error('the API key appears in the execution data or the n8n log');
}

/** Polls `fn` until it returns something truthy (returned), or fails after `timeoutMs`. */
async function waitFor(what, fn, { timeoutMs = 60_000, everyMs = 500 } = {}) {
	const started = Date.now();
	for (;;) {
		const v = await fn();
		if (v) return v;
		if (Date.now() - started > timeoutMs)
			throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
		await new Promise((r) => setTimeout(r, everyMs));
	}
}

/**
 * The owner of the suite's n8n user folder, for every test that starts `n8n start`. One owner:
 * on n8n 1.x the first server sets it up through the REST API and later ones log in as it.
 */
const OWNER = { email: 'e2e@gridbank.local', password: 'E2e-GridBank-1' };

module.exports = {
	...builders,
	OWNER,
	E2E_DIR,
	STATE_FILE,
	ARTIFACTS,
	CHROMIUM,
	TRIGGER_EXAMPLES,
	TRIGGER_EXAMPLE_STARTS,
	openSession,
	sha256File,
	describeFailure,
	assertNoSecret,
	waitFor,
	rt,
};
