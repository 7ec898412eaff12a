'use strict';
// What the demo, dev and e2e feed n8n: the simulator, its credentials, the example workflows.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../n8n-versions');
const { run } = require('../toolchain/run-command');

/**
 * The GridBank simulator module (simulator/, compiled with tsconfig.test.json into .cache/ts
 * the way `npm run simulator` does; recompiled only when a source file is newer).
 */
async function loadSimulator() {
	const srcDir = path.join(ROOT, 'simulator');
	const outDir = path.join(ROOT, '.cache', 'ts', 'simulator');
	const entry = path.join(outDir, 'index.js');
	const newest = (dir, ext) =>
		fs.existsSync(dir)
			? fs
					.readdirSync(dir, { recursive: true })
					.filter((f) => String(f).endsWith(ext) && !String(f).endsWith('.test.ts'))
					.reduce((m, f) => Math.max(m, fs.statSync(path.join(dir, String(f))).mtimeMs), 0)
			: 0;
	if (!fs.existsSync(entry) || newest(srcDir, '.ts') > newest(outDir, '.js')) {
		await run(process.execPath, [
			path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
			'-p',
			path.join(ROOT, 'tsconfig.test.json'),
			'--noEmit',
			'false',
			'--incremental',
			'--tsBuildInfoFile',
			path.join(ROOT, '.cache', 'ts', '.tsbuildinfo'),
		]);
	}
	return require(entry);
}

/** The demo credentials (simulator demo keys), with the ids the example workflows reference. */
function demoCredentials(baseUrl, sim) {
	return [
		{
			id: 'gbPartnerCredDemo',
			name: 'GridBank Partner account',
			type: 'gridBankPartnerApi',
			data: { apiKey: sim.DEMO_PARTNER_KEY, baseUrl },
		},
		{
			id: 'gbEnterpriseCredDm',
			name: 'GridBank Enterprise account',
			type: 'gridBankEnterpriseApi',
			data: { apiKey: sim.DEMO_ENTERPRISE_KEY, baseUrl },
		},
	];
}

/** Points the example's Settings node at `folder` (the only folder n8n may write into here). */
function withDownloadFolder(workflow, folder) {
	const settings = workflow.nodes.find(
		(n) => n.name === 'Settings' || n.name === 'Search settings',
	);
	const field = settings?.parameters.assignments.assignments.find(
		(a) => a.name === 'downloadFolder',
	);
	if (!field) throw new Error(`${workflow.name}: no downloadFolder in its settings node`);
	field.value = folder;
	return workflow;
}

/** Loads an example workflow from examples/. */
function loadExample(file) {
	return JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', file), 'utf8'));
}

/** Every example workflow file, sorted. */
function exampleFiles() {
	return fs
		.readdirSync(path.join(ROOT, 'examples'))
		.filter((f) => f.endsWith('.json'))
		.sort();
}

module.exports = { demoCredentials, exampleFiles, loadExample, loadSimulator, withDownloadFolder };
