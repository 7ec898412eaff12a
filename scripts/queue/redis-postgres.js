'use strict';
/** The cluster's Redis and PostgreSQL: installed when missing, each started on a free port. */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const rt = require('../n8n/n8n-runtime');
const { aptInstall } = require('../toolchain/apt-install');
const { startProcess, waitUntil } = require('./owned-processes');

const DB_NAME = 'n8n';
const DB_USER = 'n8n';

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

module.exports = { DB_NAME, DB_USER, ensureServices, startRedis, startPostgres };
