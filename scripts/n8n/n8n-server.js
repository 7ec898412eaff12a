'use strict';
// `n8n start` for an instance, its owner set up from the environment, and the tail of its log.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { CACHE_DIR, N8N_BIN, N8N_MAJOR } = require('../n8n-versions');
const { fmtDuration } = require('../toolchain/run-command');
const { n8nEnv } = require('./n8n-instance');

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
	let lastSetup = '';
	for (;;) {
		if (exited)
			throw new Error(
				`n8n start exited (${exited.code ?? exited.signal}); see ${logFile}:\n${tail(logFile)}`,
			);
		if (Date.now() - started > 180_000) {
			await server.stop();
			throw new Error(
				`n8n did not come up on ${url} within 3 minutes${ownerReady ? '' : ` (owner set-up's last answer: ${lastSetup || 'none'})`}; see ${logFile}:\n${tail(logFile)}`,
			);
		}
		try {
			if (!ownerReady) {
				const setup = await setUpOwner(url, owner);
				if (setup === true) ownerReady = true;
				else lastSetup = setup;
			}
			const res = ownerReady
				? await fetch(`${url}/rest/login`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
					})
				: undefined;
			// No cookie on a 200 "n8n is starting up" either: asked again.
			const setCookie = res?.ok
				? res.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='))
				: undefined;
			if (setCookie) {
				server.cookie = setCookie.split(';')[0];
				break;
			}
		} catch (error) {
			if (error instanceof SetupRefused) {
				await server.stop();
				throw new Error(`${error.message}; see ${logFile}:\n${tail(logFile)}`);
			}
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
		const { text, json } = await readJson(res);
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

class SetupRefused extends Error {}

/**
 * n8n 1.x: claims the instance for `owner` through /rest/owner/setup. True once done (or done
 * before, in a reused user folder); otherwise the answer, to ask again. A 400 other than "already
 * set up" (the owner refused: a weak password) throws SetupRefused at once. While it starts, n8n
 * 1.x answers 200 "n8n is starting up. Please wait" (migrations not run yet), then 404 (readiness
 * is 200 before the REST routes exist): taking that 200 for a set-up owner once left a suite's
 * first server answering the owner's login with 401 for good, so only an answer naming the owner
 * counts.
 */
async function setUpOwner(url, owner) {
	const ready = await fetch(`${url}/healthz/readiness`);
	if (!ready.ok) return `readiness HTTP ${ready.status}`;
	const res = await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			email: owner.email,
			firstName: owner.firstName ?? 'Demo',
			lastName: owner.lastName ?? 'User',
			password: owner.password,
		}),
	});
	const { text, json: body } = await readJson(res);
	if (res.ok && body?.data?.email === owner.email) return true;
	if (res.status === 400 && /already set ?up/i.test(body?.message ?? '')) return true;
	if (res.status !== 400) return `HTTP ${res.status} ${text.slice(0, 100)}`;
	throw new SetupRefused(
		`n8n refused the owner's set-up: HTTP ${res.status} ${text.slice(0, 300)}`,
	);
}

/** A fetch response's text, and its JSON when it is JSON (else undefined). */
async function readJson(res) {
	const text = await res.text();
	try {
		return { text, json: JSON.parse(text) };
	} catch {
		return { text, json: undefined };
	}
}

function tail(file, lines = 30) {
	try {
		return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

module.exports = { readJson, startServer, tail };
