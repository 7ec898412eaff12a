/**
 * `npm run test:queue`: the package in n8n's queue mode (main + two workers, Redis, Postgres),
 * started by scripts/queue/queue-cluster.js. Not part of `npm test` or `npm run test:e2e`.
 */
module.exports = {
	rootDir: __dirname,
	testEnvironment: 'node',
	testMatch: ['<rootDir>/*.queue.test.js'],
	transform: {},
	testTimeout: 600_000,
	maxWorkers: 1,
	verbose: true,
};
