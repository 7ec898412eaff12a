'use strict';
/**
 * `npm run test:matrix`: the real-engine suite (test/**) against older n8n engines, beside
 * `npm test` (n8n-core 2.41.1 on Node 24). Each leg installs its n8n-core / n8n-workflow /
 * @n8n/di into .cache/matrix/<n8n-core version>/ (own package.json, outside our lockfile; reused
 * while its stamp matches) and runs jest with jest.matrix.config.js, whose resolver takes those
 * packages from that folder, under the leg's Node (scripts/node22, or the machine's Node 20).
 *
 *   node scripts/toolchain/test-matrix.js [leg ...] [-- jest args]     legs: 1.122.48 (n8n 1.123), 1.84.0 (n8n 1.85)
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

/** n8n's own pins: the n8n-core, n8n-workflow and @n8n/di each n8n release depends on. */
const LEGS = [
	{ n8n: '1.123.81', core: '1.122.48', workflow: '1.120.31', di: '0.10.0', node: 'node22' },
	// The floor: n8n 1.85 is the first to export NodeConnectionTypes; it declares Node >=18.17 <=22, run on the machine's Node 20.
	// A partial leg. Left out: the simulator contract tests and credentials.test.ts (undici 8, with which
	// they send requests, needs Node 22; they check the simulator and the credential's test request,
	// which the n8n 1.x e2e runs through n8n's endpoint); database-mode.test.ts and
	// copy-binary-modes.test.ts (n8n 1.85 has no `database` binary data mode); agent-tools.test.ts (its harness builds tools with n8n-workflow
	// 2.x helpers that 1.83 lacks: the nodes as agent tools are NOT proven on n8n 1.85).
	{
		n8n: '1.85.4',
		core: '1.84.0',
		workflow: '1.83.0',
		di: '0.4.0',
		node: 'node20',
		ignore: [
			'test/simulator/',
			'test/credentials/credentials\\.test\\.ts',
			'test/nodes/shared/download/database-mode\\.test\\.ts',
			// The copy in database mode: the same missing mode (the copy itself runs in the other files).
			'test/nodes/shared/storage/copy-binary-modes\\.test\\.ts',
			'test/nodes/agent-tools\\.test\\.ts',
			// Runs n8n 2.41.1's Tools Agent step, which needs n8n-workflow 2.x's nodeNameToToolName.
			'test/nodes/agent-observation\\.test\\.ts',
		],
	},
];

/**
 * Files whose outcome no engine changes (they load no n8n-core or n8n-workflow code: the
 * simulator's contract, the S3 server script, the benchmark's plans, the repository's layout and
 * docs): `npm test` runs them once, the legs leave them out.
 */
const SAME_ON_EVERY_ENGINE = [
	'test/simulator/',
	'test/scripts/',
	'test/bench/',
	'test/package/(ci-workflows|doc-paths|example-layout|layout|package|readme)\\.test\\.ts',
];

function sh(cmd, args, opts = {}) {
	const res = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
	if (res.status !== 0)
		throw new Error(`${cmd} ${args.join(' ')} exited with ${res.status ?? res.signal}`);
}

/** `bash scripts/node22 <cmd>`, or the machine's node for node20 (CI machines ship Node 20). */
function withNode(leg, cmd, args, opts) {
	if (leg.node === 'node20') {
		// The machine's own Node: drop scripts/node24's (or node22's) Node from PATH.
		const env = { ...(opts?.env ?? process.env) };
		env.PATH = env.PATH.split(path.delimiter)
			.filter((dir) => !dir.includes(`${path.sep}.tools${path.sep}`))
			.join(path.delimiter);
		delete env.npm_config_nodedir;
		const which = spawnSync('node', ['--version'], { encoding: 'utf8', env });
		if (!which.stdout?.startsWith('v20.'))
			throw new Error(
				`the n8n ${leg.n8n} leg runs on the machine's Node 20; found ${which.stdout?.trim() || 'no node'} on PATH`,
			);
		return sh(cmd, args, { ...opts, env });
	}
	return sh('bash', [path.join(ROOT, 'scripts', leg.node), cmd, ...args], opts);
}

function ensureInstalled(leg) {
	const dir = path.join(ROOT, '.cache', 'matrix', leg.core);
	const stamp = path.join(dir, '.gridbank-matrix-stamp');
	const want = `n8n-core@${leg.core} n8n-workflow@${leg.workflow} @n8n/di@${leg.di}\n`;
	if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === want) return dir;
	console.log(
		`[matrix] installing n8n-core ${leg.core} (n8n ${leg.n8n}) into .cache/matrix/${leg.core} (one time)`,
	);
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		`${JSON.stringify(
			{
				name: `gridbank-matrix-${leg.core}`,
				private: true,
				description: `n8n ${leg.n8n}'s engine for npm run test:matrix (not part of the package)`,
				dependencies: {
					'n8n-core': leg.core,
					'n8n-workflow': leg.workflow,
					'@n8n/di': leg.di,
					'reflect-metadata': '0.2.2',
				},
			},
			null,
			2,
		)}\n`,
	);
	// No install scripts: the engine needs none of its optional native add-ons for these tests.
	withNode(
		leg,
		'npm',
		['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
		{ cwd: dir },
	);
	fs.writeFileSync(stamp, want);
	return dir;
}

function main() {
	const argv = process.argv.slice(2);
	const dash = argv.indexOf('--');
	const names = dash < 0 ? argv : argv.slice(0, dash);
	const jestArgs = dash < 0 ? [] : argv.slice(dash + 1);
	const legs = names.length
		? names.map((n) => LEGS.find((l) => l.core === n || l.n8n === n) ?? fail(`unknown leg ${n}`))
		: LEGS;
	const summary = [];
	for (const leg of legs) {
		const started = Date.now();
		const dir = ensureInstalled(leg);
		console.log(
			`\n[matrix] n8n ${leg.n8n}: n8n-core ${leg.core}, n8n-workflow ${leg.workflow} on ${leg.node}`,
		);
		const ignore = [...SAME_ON_EVERY_ENGINE, ...(leg.ignore ?? [])].map(
			(p) => `--testPathIgnorePatterns=${p}`,
		);
		withNode(
			leg,
			'node',
			[
				'--experimental-vm-modules',
				'--disable-warning=ExperimentalWarning',
				'node_modules/jest/bin/jest.js',
				'-c',
				'jest.matrix.config.js',
				...jestArgs,
				...ignore,
			],
			{
				env: { ...process.env, GRIDBANK_MATRIX_DIR: dir },
			},
		);
		summary.push(
			`n8n ${leg.n8n} (n8n-core ${leg.core}, ${leg.node}): passed in ${Math.round((Date.now() - started) / 1000)}s`,
		);
	}
	console.log(`\n[matrix]\n${summary.join('\n')}`);
}

function fail(msg) {
	throw new Error(msg);
}

main();
