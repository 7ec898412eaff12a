'use strict';
// Which n8n the demo, dev and e2e use (GRIDBANK_N8N_VERSION picks another), where it is
// installed, and the Node it needs.
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
/** The n8n of demo/dev/e2e. GRIDBANK_N8N_VERSION picks another one (e.g. 1.123.81 under scripts/node22 for the n8n 1.x e2e run). */
const DEFAULT_N8N_VERSION = '2.41.1';
const N8N_VERSION = process.env.GRIDBANK_N8N_VERSION || DEFAULT_N8N_VERSION;
const N8N_MAJOR = Number(N8N_VERSION.split('.')[0]);
/** n8n 2.x needs Node 24; n8n 1.x runs on Node >=20.19 (we run it on 22). */
const NODE_MAJOR_NEEDED = N8N_MAJOR >= 2 ? 24 : 22;

/** The CLI arguments that make an imported workflow active: n8n 2.x publishes, 1.x sets it active. */
function activateWorkflowArgs(id) {
	return N8N_MAJOR >= 2
		? ['publish:workflow', `--id=${id}`]
		: ['update:workflow', `--id=${id}`, '--active=true'];
}
/** The editor check drives Debian's Chromium with this; pinned here, installed beside n8n. */
const PLAYWRIGHT_CORE_VERSION = '1.62.1';
/** '' for the default n8n, `-<version>` for another: its install, e2e folder and artifacts stay apart. */
const VERSION_SUFFIX = N8N_VERSION === DEFAULT_N8N_VERSION ? '' : `-${N8N_VERSION}`;
const CACHE_DIR = path.join(ROOT, '.cache', `n8n${VERSION_SUFFIX}`);
const N8N_BIN = path.join(CACHE_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
const STAMP = path.join(CACHE_DIR, '.gridbank-install-stamp');
const STAMP_TEXT = `n8n@${N8N_VERSION} playwright-core@${PLAYWRIGHT_CORE_VERSION} node@${process.versions.node.split('.')[0]}\n`;
/** A fixed key for local, throwaway n8n folders only (demo, dev, e2e). */
const LOCAL_ENCRYPTION_KEY = 'gridbank-local-n8n-not-a-secret';

function requireNode24() {
	const major = Number(process.versions.node.split('.')[0]);
	if (major < NODE_MAJOR_NEEDED)
		throw new Error(
			`n8n ${N8N_VERSION} needs Node ${NODE_MAJOR_NEEDED}; run this through scripts/node${NODE_MAJOR_NEEDED} (got Node ${process.versions.node})`,
		);
}

module.exports = {
	CACHE_DIR,
	LOCAL_ENCRYPTION_KEY,
	N8N_BIN,
	N8N_MAJOR,
	N8N_VERSION,
	NODE_MAJOR_NEEDED,
	PLAYWRIGHT_CORE_VERSION,
	ROOT,
	STAMP,
	STAMP_TEXT,
	VERSION_SUFFIX,
	activateWorkflowArgs,
	requireNode24,
};
