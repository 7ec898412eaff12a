'use strict';
/**
 * n8n in queue mode on this machine, for `npm run test:queue` and `npm run bench -- --queue`:
 * Debian's Redis and PostgreSQL on 127.0.0.1 (installed with apt-get when missing), each with a
 * throwaway data directory under .cache/queue/, then n8n 2.41.1 from .cache/n8n as one main
 * (`n8n start`, EXECUTIONS_MODE=queue) and N `n8n worker` processes. Every instance has its own
 * user folder with our package npm-installed into ~/.n8n/nodes from the packed tarball, as the
 * README tells users. Every port is a free one chosen now (other people's Redis, Postgres and
 * n8n may run on this machine). Everything started is stopped by PID: by stop(), on Ctrl-C and
 * when this process exits; every wait has a bound.
 */
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const rt = require('./n8n-runtime');
const { aptInstall } = require('./apt-install');

const QUEUE_DIR = path.join(rt.ROOT, '.cache', 'queue');
const DB_NAME = 'n8n';
const DB_USER = 'n8n';

/** Every process this module started and has not seen exit: stopped on Ctrl-C and at exit. */
const live = new Set();
let handlersInstalled = false;
function installExitHandlers() {
	if (handlersInstalled) return;
	handlersInstalled = true;
	process.on('exit', () => {
		for (const p of live) p.kill('SIGKILL');
	});
	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.once(signal, () => {
			for (const p of live) p.kill('SIGTERM');
			setTimeout(() => process.exit(130), 3000).unref();
		});
	}
}

/** A child process we own: output to a log file, tracked until it exits. */
function startProcess(name, cmd, args, { env = process.env, cwd = rt.ROOT, logFile, uid, gid }) {
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const out = fs.openSync(logFile, 'a');
	const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', out, out], uid, gid });
	fs.closeSync(out);
	const proc = {
		name,
		pid: child.pid,
		logFile,
		exited: null,
		kill: (signal) => {
			if (!proc.exited) {
				try {
					process.kill(child.pid, signal);
				} catch {
					/* already gone */
				}
			}
		},
		/** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
		async stop(graceMs = 15_000) {
			if (proc.exited) return;
			const done = new Promise((r) => child.once('exit', r));
			proc.kill('SIGTERM');
			const t = setTimeout(() => proc.kill('SIGKILL'), graceMs);
			await done;
			clearTimeout(t);
		},
		waitExit: () =>
			proc.exited
				? Promise.resolve(proc.exited)
				: new Promise((r) => child.once('exit', () => r(proc.exited))),
	};
	live.add(proc);
	child.on('exit', (code, signal) => {
		proc.exited = { code, signal };
		live.delete(proc);
	});
	return proc;
}

async function waitUntil(label, check, { timeoutMs, everyMs = 250, proc }) {
	const started = Date.now();
	for (;;) {
		if (proc?.exited)
			throw new Error(
				`${label}: ${proc.name} exited (${proc.exited.code ?? proc.exited.signal}); see ${proc.logFile}:\n${rt.tail(proc.logFile)}`,
			);
		try {
			const v = await check();
			if (v) return v;
		} catch {
			/* not ready yet */
		}
		if (Date.now() - started > timeoutMs)
			throw new Error(
				`${label}: not ready within ${Math.round(timeoutMs / 1000)}s${proc ? `; see ${proc.logFile}:\n${rt.tail(proc.logFile)}` : ''}`,
			);
		await new Promise((r) => setTimeout(r, everyMs));
	}
}

function postgresBinDir() {
	const base = '/usr/lib/postgresql';
	if (!fs.existsSync(base)) return undefined;
	const versions = fs
		.readdirSync(base)
		.filter((v) => fs.existsSync(path.join(base, v, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(base, versions[0], 'bin') : undefined;
}

const redisBin = () =>
	['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => fs.existsSync(p));

/** Debian's redis-server and postgresql, installed with apt-get (as root or through sudo) when missing. */
async function ensureServices({ log = console.log } = {}) {
	const missing = [];
	if (!redisBin()) missing.push('redis-server');
	if (!postgresBinDir()) missing.push('postgresql');
	if (missing.length) {
		await aptInstall(missing, { label: '[queue]', noRecommends: true });
		log(`[queue] installed ${missing.join(', ')}`);
	}
	return { redis: redisBin(), pgBin: postgresBinDir() };
}

/** One RESP PING over TCP: true when Redis answers PONG. */
function redisPing(port) {
	return new Promise((resolve) => {
		const s = net.connect(port, '127.0.0.1');
		const t = setTimeout(() => (s.destroy(), resolve(false)), 2000);
		s.on('connect', () => s.write('*1\r\n$4\r\nPING\r\n'));
		s.on('data', (d) => {
			clearTimeout(t);
			s.destroy();
			resolve(String(d).startsWith('+PONG'));
		});
		s.on('error', () => (clearTimeout(t), resolve(false)));
	});
}

async function startRedis(bin, dir) {
	fs.mkdirSync(dir, { recursive: true });
	const port = await rt.freePort();
	const proc = startProcess(
		'redis-server',
		bin,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--dir',
			dir,
			'--save',
			'',
			'--appendonly',
			'no',
			'--protected-mode',
			'yes',
			'--daemonize',
			'no',
		],
		{
			logFile: path.join(dir, 'redis.log'),
		},
	);
	await waitUntil('redis', () => redisPing(port), { timeoutMs: 30_000, proc });
	return { proc, port };
}

/**
 * PostgreSQL refuses to run as root: when we are root, initdb and postgres run as Debian's
 * `postgres` user (spawned with its uid, so the PID we hold is postgres's own), and the data
 * directory is handed to it.
 */
async function startPostgres(binDir, dir) {
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(path.dirname(dir), { recursive: true });
	fs.mkdirSync(dir, { mode: 0o700 });
	let ids = {};
	if (process.getuid?.() === 0) {
		const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
		const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
		fs.chownSync(dir, uid, gid);
		ids = { uid, gid };
	}
	const initLog = path.join(path.dirname(dir), 'initdb.log');
	await new Promise((resolve, reject) => {
		const p = startProcess(
			'initdb',
			path.join(binDir, 'initdb'),
			['-D', dir, '-U', DB_USER, '--auth=trust', '-E', 'UTF8', '--no-sync'],
			{ logFile: initLog, ...ids, cwd: '/' },
		);
		p.waitExit().then((e) =>
			e.code === 0
				? resolve()
				: reject(new Error(`initdb failed (${e.code ?? e.signal}):\n${rt.tail(initLog)}`)),
		);
	});
	const port = await rt.freePort();
	const proc = startProcess(
		'postgres',
		path.join(binDir, 'postgres'),
		[
			'-D',
			dir,
			'-p',
			String(port),
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			`unix_socket_directories=${dir}`,
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'max_connections=100',
		],
		{ logFile: path.join(path.dirname(dir), 'postgres.log'), ...ids, cwd: '/' },
	);
	const psqlArgs = [
		'-h',
		'127.0.0.1',
		'-p',
		String(port),
		'-U',
		DB_USER,
		'-v',
		'ON_ERROR_STOP=1',
		'-At',
	];
	await waitUntil(
		'postgres',
		async () =>
			(
				await rt.run(path.join(binDir, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)], {
					allowFail: true,
				})
			).code === 0,
		{ timeoutMs: 60_000, proc },
	);
	await rt.run(path.join(binDir, 'psql'), [
		...psqlArgs,
		'-d',
		'postgres',
		'-c',
		`CREATE DATABASE ${DB_NAME}`,
	]);
	/** Runs SQL on n8n's database; resolves with the rows, fields split on tabs. */
	const sql = async (query) => {
		const { stdout } = await rt.run(path.join(binDir, 'psql'), [
			...psqlArgs,
			'-F',
			'\t',
			'-d',
			DB_NAME,
			'-c',
			query,
		]);
		return stdout
			.split('\n')
			.filter(Boolean)
			.map((l) => l.split('\t'));
	};
	return { proc, port, sql };
}

/** What every n8n process of the cluster shares: queue mode, Redis, Postgres, database binary mode. */
function queueEnv({ redisPort, pgPort, extra = {} }) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(pgPort),
		DB_POSTGRESDB_DATABASE: DB_NAME,
		DB_POSTGRESDB_USER: DB_USER,
		DB_POSTGRESDB_PASSWORD: '',
		// n8n's default in queue mode, said out loud: binaries live in Postgres.
		N8N_DEFAULT_BINARY_DATA_MODE: 'database',
		// A killed worker's job is noticed within seconds (n8n's defaults: a 30 s lock, checked every
		// 30 s). n8n's periodic queue recovery keeps its default (180 min): it marks as crashed every
		// running execution not in the queue, manual runs on the main included, so a short interval
		// would "crash" healthy manual runs.
		QUEUE_WORKER_LOCK_DURATION: '15000',
		QUEUE_WORKER_LOCK_RENEW_TIME: '5000',
		QUEUE_WORKER_STALLED_INTERVAL: '10000',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		...extra,
	};
}

/** The other ports n8n 2.41 may open (engine v2 and its control plane): free ones, never defaults. */
async function ownPorts() {
	return {
		N8N_ENGINE_PORT: String(await rt.freePort()),
		N8N_ENGINE_CONTROL_PLANE_PORT: String(await rt.freePort()),
	};
}

const OWNER = {
	email: 'queue@gridbank.example',
	password: 'Queue-cluster-1',
	firstName: 'Queue',
	lastName: 'Owner',
};

/**
 * Starts `n8n worker` for an instance; resolves once its health endpoint answers.
 * `concurrency`: jobs it runs at once (n8n's default is 10).
 */
async function startWorker(inst, { name, env, concurrency }) {
	const healthPort = await rt.freePort();
	const e = {
		...rt.n8nEnv(inst, {
			...env,
			...(await ownPorts()),
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			N8N_LOG_OUTPUT: 'console',
			N8N_LOG_LEVEL: 'info',
		}),
	};
	const args = [rt.N8N_BIN, 'worker', ...(concurrency ? [`--concurrency=${concurrency}`] : [])];
	const proc = startProcess(name, process.execPath, args, {
		env: e,
		cwd: inst.userFolder,
		logFile: path.join(inst.userFolder, `${name}.log`),
	});
	await waitUntil(
		`${name} health`,
		async () => (await fetch(`http://127.0.0.1:${healthPort}/healthz`)).ok,
		{ timeoutMs: 180_000, everyMs: 500, proc },
	);
	return { name, proc, healthPort, inst, env, concurrency };
}

/** Execution ids each worker says it started, from its own log ("Worker started execution N"). */
function executionsStartedBy(worker) {
	const text = fs.existsSync(worker.proc.logFile)
		? fs.readFileSync(worker.proc.logFile, 'utf8')
		: '';
	return [...text.matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]);
}

/**
 * The whole cluster. `credentials` and `workflows` (n8n's import format) are imported before
 * the main starts; `publish` lists workflow ids to publish (activate) at start-up.
 */
async function startCluster({
	workers = 2,
	concurrency,
	credentials = [],
	workflows = [],
	publish = [],
	env: extraEnv = {},
	log = console.log,
} = {}) {
	installExitHandlers();
	const started = Date.now();
	await rt.ensureN8n({ log });
	const { redis: redisPath, pgBin } = await ensureServices({ log });
	const tgz = await rt.buildAndPack({ log });
	fs.rmSync(QUEUE_DIR, { recursive: true, force: true });
	fs.mkdirSync(QUEUE_DIR, { recursive: true });
	const filesFolder = path.join(QUEUE_DIR, 'files');

	const cluster = { workers: [], dir: QUEUE_DIR, tgz };
	const stoppers = [];
	cluster.stop = async () => {
		for (const s of stoppers.reverse()) await s().catch(() => undefined);
		stoppers.length = 0;
	};
	try {
		const redis = await startRedis(redisPath, path.join(QUEUE_DIR, 'redis'));
		stoppers.push(() => redis.proc.stop(10_000));
		const pg = await startPostgres(pgBin, path.join(QUEUE_DIR, 'pg', 'data'));
		stoppers.push(() => pg.proc.stop(20_000));
		log(
			`[queue] redis on 127.0.0.1:${redis.port}, postgres on 127.0.0.1:${pg.port} (${rt.fmtDuration(Date.now() - started)})`,
		);
		cluster.redis = redis;
		cluster.pg = pg;
		cluster.sql = pg.sql;
		const env = queueEnv({ redisPort: redis.port, pgPort: pg.port, extra: extraEnv });
		cluster.env = env;

		// The package on every instance, the way users install it (npm, in ~/.n8n/nodes).
		const instances = [];
		for (const name of ['main', ...Array.from({ length: workers }, (_, i) => `worker${i + 1}`)]) {
			instances.push({
				name,
				inst: await rt.createInstance({
					userFolder: path.join(QUEUE_DIR, name),
					filesFolder,
					fresh: true,
					tgz,
				}),
			});
		}
		const main = instances[0].inst;
		cluster.mainInstance = main;
		// The CLI talks to Postgres too: imports land in the cluster's database (n8n migrates it on first use).
		main.queueCli = (args, o = {}) => main.cli(args, { ...o, env: { ...env, ...(o.env ?? {}) } });
		if (credentials.length) {
			const file = path.join(main.userFolder, 'import-credentials.json');
			fs.writeFileSync(file, JSON.stringify(credentials, null, 2));
			try {
				await main.queueCli(['import:credentials', `--input=${file}`]);
			} finally {
				fs.rmSync(file, { force: true });
			}
		}
		if (workflows.length) await importWorkflows(main, workflows);
		for (const id of publish) await main.queueCli(['publish:workflow', `--id=${id}`]);

		const port = await rt.freePort();
		const server = await rt.startServer(main, {
			port,
			owner: OWNER,
			logFile: path.join(main.userFolder, 'main.log'),
			extraEnv: { ...env, ...(await ownPorts()) },
		});
		live.add({ name: 'n8n main', kill: (s) => server.child.kill(s) });
		stoppers.push(() => server.stop());
		cluster.main = server;
		for (const { name, inst } of instances.slice(1)) {
			const w = await startWorker(inst, { name, env, concurrency });
			cluster.workers.push(w);
			stoppers.push(() => w.proc.stop());
		}
		log(
			`[queue] n8n ${rt.N8N_VERSION} main on ${server.url} and ${workers} worker(s) up in ${rt.fmtDuration(Date.now() - started)}`,
		);
	} catch (error) {
		await cluster.stop();
		throw error;
	}

	/** Restarts a worker that was stopped or killed, same folder, same settings. */
	cluster.restartWorker = async (w) => {
		const fresh = await startWorker(w.inst, {
			name: w.name,
			env: w.env,
			concurrency: w.concurrency,
		});
		Object.assign(w, fresh);
		stoppers.push(() => fresh.proc.stop());
		return w;
	};
	cluster.executionsStartedBy = executionsStartedBy;
	/** Which worker (name) ran each execution id, from the workers' logs. */
	cluster.workerOf = () => {
		const map = {};
		for (const w of cluster.workers) for (const id of executionsStartedBy(w)) map[id] = w.name;
		return map;
	};
	return cluster;
}

async function importWorkflows(inst, workflows) {
	const dir = path.join(inst.userFolder, 'import-workflows');
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir);
	workflows.forEach((wf, i) =>
		fs.writeFileSync(path.join(dir, `${i}.json`), JSON.stringify(wf, null, 2)),
	);
	try {
		await inst.queueCli(['import:workflow', '--separate', `--input=${dir}`]);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

module.exports = { startCluster, ensureServices, waitUntil, QUEUE_DIR, OWNER };
