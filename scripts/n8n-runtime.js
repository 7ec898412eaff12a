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
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
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
const CACHE_DIR = path.join(
	ROOT,
	'.cache',
	N8N_VERSION === DEFAULT_N8N_VERSION ? 'n8n' : `n8n-${N8N_VERSION}`,
);
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

function fmtDuration(ms) {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

function fmtBytes(n) {
	if (n < 1024) return `${n} B`;
	if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
	if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
	return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

/**
 * Runs a command; resolves with its output. Rejects on a non-zero exit unless `allowFail`.
 * `quiet: false` streams its output to ours.
 */
function run(
	cmd,
	args,
	{ cwd = ROOT, env = process.env, quiet = true, allowFail = false, input } = {},
) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => {
			stdout += d;
			if (!quiet) process.stdout.write(d);
		});
		child.stderr.on('data', (d) => {
			stderr += d;
			if (!quiet) process.stderr.write(d);
		});
		if (input !== undefined) child.stdin.end(input);
		else child.stdin.end();
		child.on('error', reject);
		child.on('close', (code, signal) => {
			const result = { code, signal, stdout, stderr, pid: child.pid };
			if (code === 0 || allowFail) resolve(result);
			else {
				const tail = (stderr || stdout).trim().split('\n').slice(-25).join('\n');
				reject(
					new Error(
						`${path.basename(cmd)} ${args.join(' ')} exited with ${code ?? signal}\n${tail}`,
					),
				);
			}
		});
	});
}

/** A progress line every `everyMs` while `promise` runs (in place on a terminal). */
async function withProgress(label, promise, everyMs = 15_000) {
	const started = Date.now();
	const tty = process.stdout.isTTY;
	const print = () => {
		const line = `${label} ${fmtDuration(Date.now() - started)}`;
		if (tty) process.stdout.write(`\r${line}   `);
		else console.log(line);
	};
	print();
	const timer = setInterval(print, tty ? 1000 : everyMs);
	try {
		return await promise;
	} finally {
		clearInterval(timer);
		if (tty) process.stdout.write('\n');
	}
}

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

/** `npm run build` then `npm pack`: the tarball users' n8n would install. */
async function buildAndPack({ log = console.log } = {}) {
	const started = Date.now();
	await run('npm', ['run', 'build', '--silent'], {
		env: { ...process.env, NODE24_SKIP_INSTALL: '1' },
	});
	for (const rel of readOwnPackage().n8n.nodes.concat(readOwnPackage().n8n.credentials)) {
		if (!fs.existsSync(path.join(ROOT, rel)))
			throw new Error(`npm run build did not produce ${rel} (listed in package.json "n8n")`);
	}
	const dest = path.join(ROOT, '.cache', 'pack');
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

function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/**
 * The environment every n8n process of one local instance shares: no calls home, filesystem
 * binary data (what a production n8n should use for video files), file access limited to
 * `filesFolder`, and a task-runner broker port of its own so two n8n processes can coexist.
 */
function n8nEnv(inst, extra = {}) {
	const env = { ...process.env };
	// Our settings only; and never jest's NODE_ENV=test, under which n8n silences its logger.
	for (const k of Object.keys(env))
		if (k.startsWith('N8N_') || k.startsWith('DB_') || k === 'NODE_ENV' || k.startsWith('JEST_'))
			delete env[k];
	return {
		...env,
		N8N_USER_FOLDER: inst.userFolder,
		N8N_ENCRYPTION_KEY: LOCAL_ENCRYPTION_KEY,
		DB_TYPE: 'sqlite',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		N8N_RESTRICT_FILE_ACCESS_TO: inst.filesFolder,
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_RUNNERS_BROKER_PORT: String(inst.brokerPort),
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		...extra,
	};
}

/**
 * A local n8n instance: a user folder with our package installed, a folder the workflows
 * may write files into, and helpers to drive it through n8n's own CLI.
 */
async function createInstance({ userFolder, filesFolder, fresh = true, tgz }) {
	requireNode24();
	if (fresh) fs.rmSync(userFolder, { recursive: true, force: true });
	fs.mkdirSync(userFolder, { recursive: true });
	fs.mkdirSync(filesFolder, { recursive: true });
	if (tgz) await installPackage(userFolder, tgz);
	const inst = { userFolder, filesFolder, brokerPort: await freePort() };
	let runNo = 0;

	/** Runs `n8n <args>`; its log lines (JSON, from a log file of its own) are returned parsed. */
	inst.cli = async (args, { env = {}, allowFail = false, nodeOptions } = {}) => {
		const logFile = path.join(userFolder, 'cli-logs', `${Date.now()}-${++runNo}.log`);
		fs.mkdirSync(path.dirname(logFile), { recursive: true });
		const e = n8nEnv(inst, {
			N8N_LOG_OUTPUT: 'file',
			N8N_LOG_FILE_LOCATION: logFile,
			N8N_LOG_LEVEL: 'info',
			...env,
		});
		if (nodeOptions) e.NODE_OPTIONS = `${e.NODE_OPTIONS ?? ''} ${nodeOptions}`.trim();
		const res = await run(process.execPath, [N8N_BIN, ...args], {
			cwd: userFolder,
			env: e,
			allowFail: true,
		});
		const logText = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
		res.logs = logText
			.split('\n')
			.filter(Boolean)
			.map((l) => {
				try {
					return JSON.parse(l);
				} catch {
					return { level: 'raw', message: l };
				}
			});
		res.logFile = logFile;
		if (res.code !== 0 && !allowFail) {
			const msgs = res.logs.map((l) => l.message).join('\n');
			throw new Error(
				`n8n ${args.join(' ')} exited with ${res.code}\n${msgs.slice(-4000)}\n${res.stderr.slice(-2000)}`,
			);
		}
		return res;
	};

	/** Imports credentials ({id, name, type, data}); data is encrypted by n8n on import. */
	inst.importCredentials = async (credentials) => {
		const file = path.join(userFolder, 'import-credentials.json');
		fs.writeFileSync(file, JSON.stringify(credentials, null, 2));
		try {
			await inst.cli(['import:credentials', `--input=${file}`]);
		} finally {
			fs.rmSync(file, { force: true });
		}
	};

	/** Imports workflow objects (each with a fixed `id`); replaces earlier imports of the same id. */
	inst.importWorkflows = async (workflows) => {
		const dir = path.join(userFolder, 'import-workflows');
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir);
		workflows.forEach((wf, i) =>
			fs.writeFileSync(path.join(dir, `${i}.json`), JSON.stringify(wf, null, 2)),
		);
		try {
			await inst.cli(['import:workflow', '--separate', `--input=${dir}`]);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	};

	/**
	 * `n8n execute --id` (starts at the workflow's Manual Trigger). Resolves with
	 * { ok, code, execution, runData, error, ms, peakRssBytes? }: `execution` is the full run
	 * n8n printed, on success and on failure alike.
	 */
	inst.execute = async (workflowId, { measureRss = false, env = {} } = {}) => {
		let rssFile;
		let nodeOptions;
		if (measureRss) {
			rssFile = path.join(userFolder, `peak-rss-${Date.now()}.json`);
			nodeOptions = `--require=${path.join(__dirname, 'n8n-peak-rss.js')}`;
			env = { ...env, GRIDBANK_PEAK_RSS_FILE: rssFile };
		}
		const started = Date.now();
		const res = await inst.cli(['execute', `--id=${workflowId}`, '--rawOutput'], {
			allowFail: true,
			env,
			nodeOptions,
		});
		const ms = Date.now() - started;
		let execution;
		for (const line of res.logs) {
			if (typeof line.message !== 'string' || !line.message.startsWith('{')) continue;
			try {
				const parsed = JSON.parse(line.message);
				if (parsed?.data?.resultData) execution = parsed;
			} catch {
				/* a log line that only looks like JSON */
			}
		}
		const out = {
			ok: res.code === 0 && execution?.status === 'success',
			code: res.code,
			execution,
			runData: execution?.data?.resultData?.runData ?? {},
			error: execution?.data?.resultData?.error,
			ms,
			logs: res.logs,
			stderr: res.stderr,
		};
		if (rssFile) {
			// One line per Node process that loaded the hook (n8n and its task runner); ours is the CLI's pid.
			const lines = fs.existsSync(rssFile)
				? fs
						.readFileSync(rssFile, 'utf8')
						.split('\n')
						.filter(Boolean)
						.map((l) => JSON.parse(l))
				: [];
			const main = lines.find((l) => l.pid === res.pid);
			out.peakRssBytes = main?.maxRssBytes;
			out.rssByProcess = lines;
			fs.rmSync(rssFile, { force: true });
		}
		if (!execution && res.code !== 0) {
			out.error = {
				message:
					res.logs
						.map((l) => l.message)
						.join('\n')
						.slice(-3000) || res.stderr.slice(-3000),
			};
		}
		return out;
	};

	/** Items a node output in run `runIndex` (default: the last run), output 0. */
	inst.itemsOf = (result, nodeName, { output = 0, runIndex } = {}) => {
		const runs = result.runData[nodeName];
		if (!runs?.length) return undefined;
		const r = runs[runIndex ?? runs.length - 1];
		return r.data?.main?.[output] ?? [];
	};

	return inst;
}

/**
 * `n8n start` for the instance on 127.0.0.1:<port>, its owner set up from the environment
 * (no set-up screen). Resolves once the REST API accepts the owner's login.
 */
async function startServer(inst, { port, owner, logFile, extraEnv = {}, log = () => {} }) {
	const bcrypt = require(path.join(CACHE_DIR, 'node_modules', 'bcryptjs'));
	const env = n8nEnv(inst, {
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}`,
		N8N_SECURE_COOKIE: 'false',
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: owner.email,
		N8N_INSTANCE_OWNER_FIRST_NAME: owner.firstName ?? 'Demo',
		N8N_INSTANCE_OWNER_LAST_NAME: owner.lastName ?? 'User',
		N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(owner.password, 10),
		N8N_LOG_OUTPUT: 'console',
		N8N_LOG_LEVEL: 'info',
		...extraEnv,
	});
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const out = fs.openSync(logFile, 'a');
	const child = spawn(process.execPath, [N8N_BIN, 'start'], {
		cwd: inst.userFolder,
		env,
		stdio: ['ignore', out, out],
		detached: false,
	});
	fs.closeSync(out);
	const url = `http://127.0.0.1:${port}`;
	let exited = null;
	child.on('exit', (code, signal) => {
		exited = { code, signal };
	});
	const server = {
		url,
		pid: child.pid,
		child,
		logFile,
		cookie: '',
		async stop() {
			if (exited) return;
			const done = new Promise((r) => child.once('exit', r));
			child.kill('SIGTERM');
			const t = setTimeout(() => child.kill('SIGKILL'), 20_000);
			await done;
			clearTimeout(t);
		},
	};
	const started = Date.now();
	// n8n 1.x has no owner from the environment: the owner is set up through its REST API once it listens.
	let ownerReady = N8N_MAJOR >= 2;
	for (;;) {
		if (exited)
			throw new Error(
				`n8n start exited (${exited.code ?? exited.signal}); see ${logFile}:\n${tail(logFile)}`,
			);
		if (Date.now() - started > 180_000) {
			await server.stop();
			throw new Error(
				`n8n did not come up on ${url} within 3 minutes; see ${logFile}:\n${tail(logFile)}`,
			);
		}
		try {
			if (!ownerReady) {
				const setup = await fetch(`${url}/rest/owner/setup`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({
						email: owner.email,
						firstName: owner.firstName ?? 'Demo',
						lastName: owner.lastName ?? 'User',
						password: owner.password,
					}),
				});
				// 400 once an owner exists (a reused user folder).
				if (setup.ok || setup.status === 400) ownerReady = true;
				else throw new Error(`owner setup: HTTP ${setup.status}`);
			}
			const res = await fetch(`${url}/rest/login`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
			});
			if (res.ok) {
				const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
				server.cookie = setCookie.split(';')[0];
				break;
			}
		} catch {
			/* not listening yet */
		}
		await new Promise((r) => setTimeout(r, 500));
	}
	log(`[n8n] editor up on ${url} in ${fmtDuration(Date.now() - started)}`);

	/** The editor's own REST API (/rest/...), as the logged-in owner. */
	server.rest = async (method, p, body) => {
		const res = await fetch(`${url}/rest${p}`, {
			method,
			headers: {
				cookie: server.cookie,
				'content-type': 'application/json',
				'browser-id': 'gridbank-e2e',
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		let json;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		if (!res.ok) {
			const err = new Error(`${method} /rest${p}: HTTP ${res.status} ${text.slice(0, 500)}`);
			err.status = res.status;
			err.body = json ?? text;
			throw err;
		}
		return json?.data ?? json;
	};
	return server;
}

function tail(file, lines = 30) {
	try {
		return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

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

module.exports = {
	ROOT,
	N8N_VERSION,
	N8N_MAJOR,
	activateWorkflowArgs,
	PLAYWRIGHT_CORE_VERSION,
	CACHE_DIR,
	N8N_BIN,
	ensureN8n,
	n8nInstalled,
	buildAndPack,
	installPackage,
	createInstance,
	n8nEnv,
	startServer,
	freePort,
	run,
	withProgress,
	fmtBytes,
	fmtDuration,
	loadExample,
	exampleFiles,
	loadSimulator,
	demoCredentials,
	withDownloadFolder,
	tail,
	osTmp: os.tmpdir(),
};
