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
};
