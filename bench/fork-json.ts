// A measured run in a fresh process (its own RSS baseline and peak): the script gets its input
// as one JSON argument and prints its result as the last JSON line.
import { fork } from 'node:child_process';
import { join } from 'node:path';

/**
 * `script`: a compiled file beside this one; `what` names the run in errors. `v8`: more V8
 * flags (--trace-gc); `earlier`: gets what the run printed before its result; `timeoutMs`: the
 * run is killed and fails after this long (a hung row must not hold the whole benchmark).
 */
export function forkForJson<T>(
	script: string,
	input: unknown,
	what: string,
	options: { v8?: string[]; earlier?: (text: string) => void; timeoutMs?: number } = {},
): Promise<T> {
	return new Promise((resolve, reject) => {
		const child = fork(join(__dirname, script), [JSON.stringify(input)], {
			execArgv: ['--expose-gc', ...(options.v8 ?? [])],
			stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
		});
		let out = '';
		let timedOut = false;
		const timer =
			options.timeoutMs === undefined
				? undefined
				: setTimeout(() => {
						timedOut = true;
						child.kill('SIGKILL');
					}, options.timeoutMs);
		child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.on('error', reject);
		child.on('exit', (code) => {
			clearTimeout(timer);
			if (timedOut)
				return reject(
					new Error(
						`${what} had no result after ${Math.round((options.timeoutMs as number) / 1000)} s (killed)`,
					),
				);
			const lines = out.trim().split('\n');
			const line = lines.pop() ?? '';
			options.earlier?.(lines.join('\n'));
			if (code !== 0) return reject(new Error(`${what} exited with ${code}`));
			try {
				resolve(JSON.parse(line) as T);
			} catch {
				reject(new Error(`${what} printed no result: ${out.slice(0, 500)}`));
			}
		});
	});
}
