'use strict';
// A local n8n instance: a user folder with our package, a free port, its environment, and
// helpers that drive it through n8n's own CLI.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { LOCAL_ENCRYPTION_KEY, N8N_BIN, requireNode24 } = require('../n8n-versions');
const { run } = require('../toolchain/run-command');
const { installPackage } = require('./n8n-install');

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
	 * { ok, code, signal, execution, runData, error, ms, peakRssBytes? }: `execution` is the full
	 * run n8n printed, on success and on failure alike; `signal` names what ended a process that
	 * exited without a code.
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
			signal: res.signal,
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

module.exports = { createInstance, freePort, n8nEnv };
