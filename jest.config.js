/** Unit and real-engine tests: nodes run through n8n-core's WorkflowExecute against simulator/ over HTTP. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	setupFiles: ['<rootDir>/test/harness/env.ts'],
	setupFilesAfterEnv: ['<rootDir>/test/harness/after-each-file.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false, tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	testTimeout: 60_000,
	// Files mostly wait (the simulator's retry waits, rate windows, stalls): on a 2-core machine
	// the suite's CPU time was under half its wall time at 2 workers, so 4 run it sooner. Fixed,
	// not a share of the cores: CI=true would otherwise leave one worker on a 2-core runner.
	maxWorkers: 4,
	// Each file loads n8n-core afresh and about 50 MB of it stays on the worker's heap; a worker
	// that ran half the suite holds gigabytes, and freeing them when it ends outlasts Jest's
	// 500 ms grace ("a worker process has failed to exit gracefully"). Recycle it between files.
	workerIdleMemoryLimit: '512MB',
};
