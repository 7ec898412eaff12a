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
	maxWorkers: 2,
	// Each file loads n8n-core afresh and about 50 MB of it stays on the worker's heap; a worker
	// that ran half the suite holds gigabytes, and freeing them when it ends outlasts Jest's
	// 500 ms grace ("a worker process has failed to exit gracefully"). Recycle it between files.
	workerIdleMemoryLimit: '512MB',
};
