'use strict';
/**
 * `npm run dev`: the real n8n editor on http://127.0.0.1:5678 with this package installed from
 * its freshly built tarball, the GridBank simulator running, the demo credentials set and
 * every example workflow imported, so you open the page and run them.
 *
 * Env: N8N_PORT (default 5678), PORT (simulator, default 4010; a free port if taken),
 * DEV_FRESH=1 to start from an empty n8n folder. Stop with Ctrl+C.
 */
const fs = require('node:fs');
const path = require('node:path');
const rt = require('./n8n-runtime');
const { startJobServices } = require('../services/job-services');

const OWNER = {
	email: 'demo@gridbank.local',
	password: 'GridBank-demo-1',
	firstName: 'GridBank',
	lastName: 'Demo',
};

async function listenOrFree(preferred) {
	const net = require('node:net');
	const ok = await new Promise((resolve) => {
		const s = net.createServer();
		s.once('error', () => resolve(false));
		s.listen(preferred, '127.0.0.1', () => s.close(() => resolve(true)));
	});
	return ok ? preferred : rt.freePort();
}

async function main() {
	const n8nPort = Number(process.env.N8N_PORT ?? 5678);
	if (!(await listenOrFree(n8nPort).then((p) => p === n8nPort))) {
		throw new Error(`port ${n8nPort} is in use (another n8n?). Stop it or set N8N_PORT.`);
	}
	await rt.ensureN8n();
	const tgz = await rt.buildAndPack();

	const sim = await rt.loadSimulator();
	const simPort = await listenOrFree(Number(process.env.PORT ?? 4010));
	const simulator = await sim.startSimulator({ port: simPort, storagePort: 0 });
	// Fresh licences, so "videos licensed since the last run" finds something when you click run.
	const now = Date.now();
	for (let i = 0; i < 3; i++)
		simulator.addPartnerLicences(sim.DEMO_PARTNER_KEY, 1, {
			purchasedAt: now - (10 + i * 15) * 60_000,
		});

	const base = path.join(rt.ROOT, '.cache', 'dev');
	// The examples' S3 bucket and Slack, locally (scripts/services/job-services.js).
	const job = await startJobServices({ dir: path.join(base, 'job') });
	const userFolder = path.join(base, 'n8n-user');
	const filesFolder = path.join(base, 'files');
	const n8n = await rt.createInstance({
		userFolder,
		filesFolder,
		fresh: process.env.DEV_FRESH === '1',
		tgz,
	});
	console.log(
		`[dev] installed ${path.basename(tgz)} into ${path.relative(rt.ROOT, userFolder)}/.n8n/nodes`,
	);
	await n8n.importCredentials([...rt.demoCredentials(simulator.baseUrl, sim), ...job.credentials]);
	const workflows = rt.exampleFiles().map((f) => {
		const wf = rt.loadExample(f);
		try {
			const folder = path.join(filesFolder, path.basename(f, '.json'));
			rt.withDownloadFolder(wf, folder);
			fs.mkdirSync(folder, { recursive: true });
		} catch {
			/* an example that writes no files */
		}
		return wf;
	});
	await n8n.importWorkflows(workflows);
	console.log(
		`[dev] imported the demo credentials and ${workflows.length} example workflows (re-imported on every start)`,
	);

	const server = await rt.startServer(n8n, {
		port: n8nPort,
		owner: OWNER,
		logFile: path.join(base, 'n8n.log'),
		log: console.log,
		extraEnv: job.n8nEnv,
	});
	let stopping = false;
	const stop = async (signal) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n[dev] ${signal}: stopping n8n and the simulator`);
		await server.stop();
		await simulator.close().catch(() => {});
		await job.close().catch(() => {});
		process.exit(0);
	};
	// What the examples post to Slack, shown here as it arrives.
	let shown = 0;
	setInterval(() => {
		for (const m of job.slack.messages.slice(shown))
			console.log(`[slack] ${m.channel}: ${m.text.replace(/\n/g, '\n        ')}`);
		shown = job.slack.messages.length;
	}, 1000).unref();
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
	server.child.on('exit', (code) => {
		if (!stopping) {
			console.error(`[dev] n8n exited (${code}); last log lines:\n${rt.tail(server.logFile)}`);
			simulator.close().finally(() => process.exit(1));
		}
	});

	console.log(`
GridBank dev environment is running
  n8n editor      ${server.url}
    log in as     ${OWNER.email} / ${OWNER.password}
    workflows     ${workflows.map((w) => `"${w.name}"`).join('\n                  ')}
    credentials   "GridBank Partner account", "GridBank Enterprise account" (demo keys, simulator URL),
                  "S3 account" (local S3 server), "Slack account" (local Slack stand-in)
    files go to   ${filesFolder}/
    n8n log       ${path.relative(rt.ROOT, server.logFile)}
  simulator       ${simulator.baseUrl}
    Partner key   ${sim.DEMO_PARTNER_KEY}
    Enterprise    ${sim.DEMO_ENTERPRISE_KEY}
  S3 bucket       ${job.s3.endpoint}/gridbank-masters (objects in ${path.relative(rt.ROOT, job.s3.directory)}/)
  Slack           messages posted are printed here
  Rebuilt nodes? Stop (Ctrl+C) and run npm run dev again: it packs and reinstalls the package.
Press Ctrl+C to stop.`);
}

main().catch((err) => {
	console.error(`[dev] failed: ${err instanceof Error ? err.message : String(err)}`);
	process.exit(1);
});
