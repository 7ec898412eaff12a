// aria2c beside the node in the WAN phase: the download accelerator people use for parallel
// ranged downloads, fetching the same signed URL over the same simulated link. The simulator's
// caps are per TCP connection (WanLink books by socket), so aria2c's `-x N` connections get
// exactly what the node's N connections get.
//
// CPU: bash's `times` after aria2c exits (the children's user and system seconds, as the
// kernel counts them at reaping). Peak RSS: aria2c's VmHWM in /proc, read every 100 ms while
// it runs (absolute: aria2c has no baseline to subtract; it starts at a few MiB).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { fileSha256 } from '../simulator/file-content';
import { signedUrlOf } from '../test/simulator/helpers';
import { USER_AGENT } from '../nodes/shared/version';
import { aptInstallIfRoot } from './apt';
import { TMP } from './env';
import { MiB } from './measure';
import { aria2Args, INSTALL_HINT, parseTimes } from './aria2-command';

export interface Aria2Availability {
	path?: string;
	version?: string;
	/** Why there are no aria2c rows, and how to get them. */
	note?: string;
}

export interface Aria2Result {
	seconds: number;
	cpuUserMs: number;
	cpuSystemMs: number;
	peakRssBytes?: number;
}

const which = (name: string): string | undefined => {
	const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
	return found.status === 0 ? found.stdout.trim() || undefined : undefined;
};

/** aria2c on the PATH, else installed with the project's apt helper (root or passwordless sudo), else a note. */
export async function findAria2c(log: (m: string) => void): Promise<Aria2Availability> {
	let path = which('aria2c');
	if (!path) {
		try {
			if (!(await aptInstallIfRoot(['aria2']))) return { note: INSTALL_HINT };
		} catch (error) {
			log(`aria2 install failed: ${(error as Error).message}`);
			return { note: INSTALL_HINT };
		}
		path = which('aria2c');
		if (!path) return { note: INSTALL_HINT };
	}
	const version = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
	return { path, version: version?.trim() };
}

/** A fresh signed URL for the video, as the node gets it (Get Download URL, its User-Agent). */
export const signedUrl = (baseUrl: string, videoKey: string) =>
	signedUrlOf(baseUrl, videoKey, { ua: USER_AGENT });

function vmHwm(pid: number): number | undefined {
	try {
		const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return m ? Number(m[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

const expected = new Map<string, string>();
/** The file's SHA-256 from the simulator's own generator, once per file (not timed). */
function expectedSha256(videoKey: string, size: number): string {
	const key = `${videoKey}:${size}`;
	if (!expected.has(key)) expected.set(key, fileSha256(videoKey, size));
	return expected.get(key) as string;
}

async function sha256Of(file: string): Promise<string> {
	const hash = createHash('sha256');
	for await (const chunk of createReadStream(file, { highWaterMark: 4 * MiB }))
		hash.update(chunk as Buffer);
	return hash.digest('hex');
}

/** One aria2c download of `videoKey` into bench/tmp: wall and CPU time, peak RSS; size and SHA-256 checked after. */
export async function runAria2c(
	aria2c: string,
	input: { baseUrl: string; videoKey: string; size: number; connections: number; verify: boolean },
): Promise<Aria2Result> {
	const url = await signedUrl(input.baseUrl, input.videoKey);
	const out = `aria2c-${process.pid}.bin`;
	const file = join(TMP, out);
	const script =
		'aria2c="$1"; shift; "$aria2c" "$@" & echo "pid $!"; wait $!; rc=$?; times; exit $rc';
	const started = performance.now();
	const child = spawn(
		'bash',
		['-c', script, 'aria2-bench', aria2c, ...aria2Args(url, input.connections, TMP, out)],
		{
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	let stdout = '';
	let stderr = '';
	let pid: number | undefined;
	let peak: number | undefined;
	const sample = () => {
		const hwm = pid === undefined ? undefined : vmHwm(pid);
		if (hwm !== undefined) peak = Math.max(peak ?? 0, hwm);
	};
	child.stdout.on('data', (chunk: Buffer) => {
		stdout += chunk.toString();
		pid ??= Number(/^pid (\d+)/m.exec(stdout)?.[1]) || undefined;
		sample();
	});
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const timer = setInterval(sample, 100);
	try {
		const code = await new Promise<number | null>((resolve, reject) => {
			child.on('error', reject);
			child.on('exit', resolve);
		});
		const seconds = (performance.now() - started) / 1000;
		if (code !== 0)
			throw new Error(
				`aria2c exited with ${code}: ${stderr.trim().slice(0, 300) || stdout.slice(0, 300)}`,
			);
		const bytes = (await stat(file)).size;
		if (bytes !== input.size) throw new Error(`aria2c: ${bytes} of ${input.size} bytes`);
		if (input.verify) {
			const [got, want] = [await sha256Of(file), expectedSha256(input.videoKey, input.size)];
			if (got !== want) throw new Error(`aria2c: SHA-256 ${got}, the simulator's ${want}`);
		}
		const cpu = parseTimes(stdout);
		return { seconds, cpuUserMs: cpu.userMs, cpuSystemMs: cpu.systemMs, peakRssBytes: peak };
	} finally {
		clearInterval(timer);
		await rm(file, { force: true });
		await rm(`${file}.aria2`, { force: true });
	}
}
