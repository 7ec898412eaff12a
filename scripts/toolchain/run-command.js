'use strict';
// Child processes and progress lines for the n8n scripts: run a command, report a long wait,
// format durations and sizes.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { ROOT } = require('../n8n-versions');

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

module.exports = { fmtBytes, fmtDuration, run, withProgress };
