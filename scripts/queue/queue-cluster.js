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
const fs = require('node:fs');
const path = require('node:path');
const rt = require('../n8n/n8n-runtime');
const { live, installExitHandlers, startProcess, waitUntil } = require('./owned-processes');
const { DB_NAME, DB_USER, ensureServices, startRedis, startPostgres } = require('./redis-postgres');

const QUEUE_DIR = path.join(rt.ROOT, '.cache', 'queue');

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
