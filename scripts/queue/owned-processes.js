'use strict';
/** Child processes the queue cluster owns: logged to a file, tracked, stopped by PID at exit. */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const rt = require('../n8n/n8n-runtime');

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

module.exports = { live, installExitHandlers, startProcess, waitUntil };
