'use strict';
/**
 * The real n8n that `npm run demo`, `npm run dev` and `npm run test:e2e` use.
 *
 * - n8n itself lives in `.cache/n8n` (gitignored), a folder with its own package.json so its
 *   2,400 packages never enter our lockfile. It is installed once (about 4-6 minutes, 2.9 GB)
 *   and reused while its stamp matches the pinned versions below.
 * - Our package reaches n8n the way it reaches users: `npm run build`, `npm pack`, then
 *   `npm install <tgz> --omit=peer` in `<user folder>/.n8n/nodes`.
 * - Workflows run through n8n's own CLI (`import:workflow`, then `execute --id`) and the
 *   editor through `n8n start`.
 *
 * Everything here must run under Node 24 (call the entry points through scripts/node24).
 * The parts live in n8n-versions.js, run-command.js, n8n-install.js, n8n-instance.js,
 * n8n-server.js and demo-fixtures.js; this module is their one entry point.
 */
const os = require('node:os');

const n8n_versions = require('../n8n-versions');
const run_command = require('../toolchain/run-command');
const n8n_install = require('./n8n-install');
const n8n_instance = require('./n8n-instance');
const n8n_server = require('./n8n-server');
const demo_fixtures = require('./demo-fixtures');

module.exports = {
	ROOT: n8n_versions.ROOT,
	N8N_VERSION: n8n_versions.N8N_VERSION,
	N8N_MAJOR: n8n_versions.N8N_MAJOR,
	activateWorkflowArgs: n8n_versions.activateWorkflowArgs,
	PLAYWRIGHT_CORE_VERSION: n8n_versions.PLAYWRIGHT_CORE_VERSION,
	CACHE_DIR: n8n_versions.CACHE_DIR,
	VERSION_SUFFIX: n8n_versions.VERSION_SUFFIX,
	N8N_BIN: n8n_versions.N8N_BIN,
	ensureN8n: n8n_install.ensureN8n,
	n8nInstalled: n8n_install.n8nInstalled,
	buildAndPack: n8n_install.buildAndPack,
	installPackage: n8n_install.installPackage,
	createInstance: n8n_instance.createInstance,
	n8nEnv: n8n_instance.n8nEnv,
	startServer: n8n_server.startServer,
	readJson: n8n_server.readJson,
	freePort: n8n_instance.freePort,
	run: run_command.run,
	withProgress: run_command.withProgress,
	fmtBytes: run_command.fmtBytes,
	fmtDuration: run_command.fmtDuration,
	loadExample: demo_fixtures.loadExample,
	exampleFiles: demo_fixtures.exampleFiles,
	loadSimulator: demo_fixtures.loadSimulator,
	demoCredentials: demo_fixtures.demoCredentials,
	withDownloadFolder: demo_fixtures.withDownloadFolder,
	tail: n8n_server.tail,
	osTmp: os.tmpdir(),
};
