// Stopping an execution the way a user does, once it is under way: a run is started, cancelled
// when the simulator has seen its first API request (and `settleMs` more), and its end timed.
import type { Simulator } from '../../simulator';
import type { GridBankRun, GridBankRunOptions } from './run-gridbank';

export async function cancelAfterFirstCall(
	sim: Simulator,
	start: (onStart: GridBankRunOptions['onStart']) => Promise<GridBankRun>,
	settleMs = 300,
): Promise<{ run: GridBankRun; endedAfterMs: number }> {
	let cancel: () => void = () => {};
	const running = start((execution) => (cancel = execution.cancel));
	for (let i = 0; i < 100 && !sim.log.some((e) => e.target === 'api'); i++)
		await new Promise((r) => setTimeout(r, 50));
	await new Promise((r) => setTimeout(r, settleMs));
	const cancelledAt = Date.now();
	cancel();
	const run = await running;
	return { run, endedAfterMs: Date.now() - cancelledAt };
}
