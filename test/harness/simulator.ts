// One simulator per test file, on free ports, closed after the file's tests.
import { startSimulator, type InternalOptions, type Simulator } from '../../simulator';

/**
 * `options.onRequest` lets a test act when a request has been answered (e.g. change the
 * catalogue mid-search). With `fresh`, every test starts with no fault switched on and an
 * empty request log.
 */
export function useSimulator(options: InternalOptions = {}, { fresh = false } = {}): () => Simulator {
	let simulator: Simulator | undefined;
	beforeAll(async () => {
		simulator = await startSimulator({ port: 0, ...options });
	});
	if (fresh)
		beforeEach(() => {
			simulator?.faults.clear();
			simulator?.clearLog();
		});
	afterAll(async () => {
		await simulator?.close();
	});
	return () => {
		if (!simulator) throw new Error('simulator not started');
		return simulator;
	};
}

/** API requests the simulator saw for a path prefix, in order. */
export const apiCalls = (sim: Simulator, pathPart: string) =>
	sim.log.filter((entry) => entry.target === 'api' && entry.path.includes(pathPart));
