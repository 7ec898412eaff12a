'use strict';
// n8n installed once into .cache (its stamp says which), and our package built, packed and
// installed into a user folder the way users get it.
const fs = require('node:fs');
const path = require('node:path');
const {
	CACHE_DIR,
	N8N_BIN,
	N8N_VERSION,
	NODE_MAJOR_NEEDED,
	PLAYWRIGHT_CORE_VERSION,
	ROOT,
	STAMP,
	STAMP_TEXT,
	requireNode24,
} = require('../n8n-versions');
const { fmtBytes, fmtDuration, run, withProgress } = require('../toolchain/run-command');

function n8nInstalled() {
	return (
		fs.existsSync(N8N_BIN) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === STAMP_TEXT
	);
}

/**
 * Installs n8n into .cache/n8n unless the stamp says it is there. Facts measured here:
 * a plain `npm install n8n` fails (a Kafka package's install script downloads binaries), so
 * scripts are skipped and the one native module n8n needs on SQLite, sqlite3, is rebuilt.
 */
async function ensureN8n({ log = console.log } = {}) {
	requireNode24();
	if (n8nInstalled()) return { installed: false, ms: 0 };
	const started = Date.now();
	fs.mkdirSync(CACHE_DIR, { recursive: true });
	const pkg = path.join(CACHE_DIR, 'package.json');
	if (!fs.existsSync(pkg))
		fs.writeFileSync(
			pkg,
			`${JSON.stringify(
				{
					name: 'gridbank-n8n-cache',
					private: true,
					description: 'The real n8n for npm run demo / dev / test:e2e (not part of the package).',
					// n8n 1.x's tree names xlsx as a tarball on its vendor's site; the registry's 0.18.5 installs everywhere.
					...(NODE_MAJOR_NEEDED < 24 ? { overrides: { xlsx: '0.18.5' } } : {}),
				},
				null,
				2,
			)}\n`,
		);
	// Never let a tool fetch its own browser: the editor check uses Debian's Chromium.
	const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
	log(
		`[n8n] installing n8n ${N8N_VERSION} into .cache/${path.basename(CACHE_DIR)} (first run only: about 5 minutes and 2.9 GB; reused afterwards)`,
	);
	await withProgress(
		'[n8n]   npm install n8n (this is the slow part)...',
		run(
			'npm',
			[
				'install',
				'--save-exact',
				'--ignore-scripts',
				'--no-audit',
				'--no-fund',
				'--loglevel=error',
				`n8n@${N8N_VERSION}`,
				`playwright-core@${PLAYWRIGHT_CORE_VERSION}`,
			],
			{ cwd: CACHE_DIR, env },
		),
	);
	await withProgress(
		`[n8n]   building sqlite3 for Node ${process.versions.node}...`,
		run('npm', ['rebuild', 'sqlite3', '--loglevel=error'], { cwd: CACHE_DIR, env }),
	);
	const { stdout } = await run(process.execPath, [N8N_BIN, '--version'], { cwd: CACHE_DIR });
	if (stdout.trim() !== N8N_VERSION)
		throw new Error(`expected n8n ${N8N_VERSION} in ${CACHE_DIR}, found ${stdout.trim()}`);
	fs.writeFileSync(STAMP, STAMP_TEXT);
	const ms = Date.now() - started;
	log(`[n8n] n8n ${N8N_VERSION} installed in ${fmtDuration(ms)}`);
	return { installed: true, ms };
}

/**
 * `npm run build` then `npm pack`: the tarball users' n8n would install. GRIDBANK_BUILT=1 (set
 * by .ci/run after its own build step) skips the build: CI's suites run two at a time, and two
 * builds writing dist/ at once could pack a half-written file.
 */
async function buildAndPack({ log = console.log } = {}) {
	const started = Date.now();
	if (process.env.GRIDBANK_BUILT !== '1')
		await run('npm', ['run', 'build', '--silent'], {
			env: { ...process.env, NODE24_SKIP_INSTALL: '1' },
		});
	for (const rel of readOwnPackage().n8n.nodes.concat(readOwnPackage().n8n.credentials)) {
		if (!fs.existsSync(path.join(ROOT, rel)))
			throw new Error(`npm run build did not produce ${rel} (listed in package.json "n8n")`);
	}
	// One folder per process, so a suite packing at the same time never deletes this tarball.
	const packs = path.join(ROOT, '.cache', 'pack');
	const dest = path.join(packs, String(process.pid));
	for (const old of fs.existsSync(packs) ? fs.readdirSync(packs) : [])
		if (!isRunning(Number(old))) fs.rmSync(path.join(packs, old), { recursive: true, force: true });
	fs.rmSync(dest, { recursive: true, force: true });
	fs.mkdirSync(dest, { recursive: true });
	const { stdout } = await run('npm', [
		'pack',
		'--json',
		'--pack-destination',
		dest,
		'--loglevel=error',
	]);
	const [info] = JSON.parse(stdout.slice(stdout.indexOf('[')));
	const tgz = path.join(dest, info.filename);
	// dist/ ships the nodes and credentials only (gulpfile.js prunes what n8n-node build copies).
	const stray = info.files
		.map((f) => f.path)
		.filter((p) => p.startsWith('dist/') && !/^dist\/(nodes|credentials)\//.test(p));
	if (stray.length)
		throw new Error(`the package would ship files outside the nodes: ${stray.join(', ')}`);
	log(
		`[n8n] built and packed ${info.filename} (${fmtBytes(info.size)}, ${info.entryCount} files) in ${fmtDuration(Date.now() - started)}`,
	);
	return tgz;
}

function isRunning(pid) {
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

function readOwnPackage() {
	return JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
}

/** Installs the tarball into `<userFolder>/.n8n/nodes` exactly as n8n's docs tell users to. */
async function installPackage(userFolder, tgz) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	const pkg = path.join(nodesDir, 'package.json');
	if (!fs.existsSync(pkg))
		fs.writeFileSync(
			pkg,
			`${JSON.stringify({ name: 'installed-nodes', private: true }, null, 2)}\n`,
		);
	await run('npm', ['install', tgz, '--omit=peer', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: nodesDir,
	});
	const installed = path.join(nodesDir, 'node_modules', readOwnPackage().name, 'package.json');
	if (!fs.existsSync(installed)) throw new Error(`${tgz} did not install into ${nodesDir}`);
	if (fs.existsSync(path.join(nodesDir, 'node_modules', 'n8n-workflow')))
		throw new Error(
			'n8n-workflow was installed beside our package: the peer dependency must come from n8n itself',
		);
}

module.exports = { buildAndPack, ensureN8n, installPackage, n8nInstalled };
