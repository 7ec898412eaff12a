'use strict';
/**
 * Once per `npm run test:e2e`: n8n in the cache (installed on the first run), our package
 * built, packed and npm-installed into a fresh n8n user folder, the simulator compiled, the
 * demo credentials imported (pointing at the simulator port every test file starts it on),
 * and Debian's Chromium present for the editor test.
 */
const fs = require('node:fs');
const path = require('node:path');
const rt = require('../scripts/n8n/n8n-runtime');
const s3Server = require('../scripts/services/s3-server');
const {
	s3Credential,
	awsCredential,
	storageCredential,
	slackCredential,
} = require('../scripts/services/job-services');
const { aptInstall } = require('../scripts/toolchain/apt-install');
const { STATE_FILE, E2E_DIR, ARTIFACTS, CHROMIUM } = require('./helpers');

async function ensureChromium() {
	if (fs.existsSync(CHROMIUM)) return;
	// Debian's own package (as root or through passwordless sudo): never a browser downloaded by a test tool.
	if (process.env.GRIDBANK_E2E_NO_APT === '1')
		throw new Error(
			`${CHROMIUM} is missing: install Debian's Chromium with \`sudo apt-get update && sudo apt-get install -y chromium\``,
		);
	await aptInstall(['chromium'], { label: '[e2e]' });
}

module.exports = async function globalSetup() {
	const started = Date.now();
	console.log('');
	const install = await rt.ensureN8n();
	// The n8n 1.x run (npm run test:e2e:n8n1) leaves out the editor's browser checks.
	if (process.env.GRIDBANK_E2E_SKIP_EDITOR !== '1') await ensureChromium();
	const tgz = await rt.buildAndPack();
	await rt.loadSimulator();

	fs.rmSync(E2E_DIR, { recursive: true, force: true });
	fs.rmSync(ARTIFACTS, { recursive: true, force: true });
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	const userFolder = path.join(E2E_DIR, 'n8n-user');
	const filesFolder = path.join(E2E_DIR, 'files');
	const n8n = await rt.createInstance({ userFolder, filesFolder, fresh: true, tgz });
	const simPort = await rt.freePort();
	const sim = await rt.loadSimulator();
	const baseUrl = `http://127.0.0.1:${simPort}`;
	// The examples' S3 bucket: each test file starts the S3 server on this port (openSession).
	const s3Port = await rt.freePort();
	const s3 = {
		endpoint: `http://127.0.0.1:${s3Port}`,
		region: s3Server.REGION,
		accessKeyId: s3Server.ACCESS_KEY_ID,
		secretAccessKey: s3Server.SECRET_ACCESS_KEY,
	};
	await n8n.importCredentials([
		...rt.demoCredentials(baseUrl, sim),
		s3Credential(s3),
		awsCredential(s3),
		storageCredential(s3),
		slackCredential(),
		{
			id: 'gbPartnerBadKey01',
			name: 'GridBank Partner (wrong key)',
			type: 'gridBankPartnerApi',
			data: { apiKey: 'apik_nope.not-a-real-secret-0000', baseUrl },
		},
	]);
	const state = {
		userFolder,
		filesFolder,
		simPort,
		baseUrl,
		s3Port,
		tgz,
		n8nInstallMs: install.ms,
		n8nInstalled: install.installed,
	};
	fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
	console.log(
		`[e2e] n8n ${rt.N8N_VERSION} user folder ready with ${path.basename(tgz)} in ${rt.fmtDuration(Date.now() - started)}`,
	);
};
