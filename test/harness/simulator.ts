// One simulator per test file, on free ports, closed after the file's tests.
import { startSimulator, type InternalOptions, type Simulator } from '../../simulator';

let current: Simulator | undefined;

/** The first simulator the test file started with useSimulator: the default server of runPartner & co. */
export function currentSimulator(): Simulator {
	if (!current) throw new Error('no simulator: call useSimulator() at the top of the test file');
	return current;
}

/**
 * `options.onRequest` lets a test act when a request has been answered (e.g. change the
 * catalogue mid-search). Before every test the simulator forgets what the last one left
 * (faults, request log, rate-limit windows, files set with setVideoFile: clearTestState());
 * accounts and videos the suite created stay. `resetEachTest: false` is for the suites whose
 * tests build on each other's state.
 */
export function useSimulator(
	options: InternalOptions = {},
	{ resetEachTest = true } = {},
): () => Simulator {
	let simulator: Simulator | undefined;
	beforeAll(async () => {
		simulator = await startSimulator({ port: 0, ...options });
		current ??= simulator;
	});
	if (resetEachTest) beforeEach(() => simulator?.clearTestState());
	afterAll(async () => {
		if (current === simulator) current = undefined;
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

/** Storage requests the simulator saw, in order. */
export const storageCalls = (sim: Simulator) =>
	sim.log.filter((entry) => entry.target === 'storage');
