// The WAN phase's loaded variant: one core kept busy by a process the bench starts and always
// stops (in finally, and on Ctrl-C), as other work on the same machine would. Ours and aria2c
// then run interleaved at the default connections (issue 36 point 3).
import { spawn, type ChildProcess } from 'node:child_process';

export const BUSY = "one core kept busy by a child `node -e 'for(;;){}'`";

/** Runs `body` while a child process spins one core; the child is stopped however `body` ends. */
export async function whileBusy<T>(body: () => Promise<T>): Promise<T> {
	const busy: ChildProcess = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
	const stop = () => {
		if (busy.exitCode === null && busy.signalCode === null) busy.kill('SIGKILL');
	};
	const onSigint = () => {
		stop();
		process.exit(130);
	};
	process.once('SIGINT', onSigint);
	process.once('exit', stop);
	try {
		// Let it take its core and the load average start to show it.
		await new Promise((resolve) => setTimeout(resolve, 2_000));
		return await body();
	} finally {
		process.off('SIGINT', onSigint);
		process.off('exit', stop);
		stop();
	}
}
