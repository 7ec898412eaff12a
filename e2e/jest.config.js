/**
 * `npm run test:e2e`: the package inside the real n8n 2.41.1 (installed once into .cache/n8n),
 * installed from its packed tarball, driven through n8n's CLI, REST API and editor (headless
 * Chromium), against the GridBank simulator. Not part of `npm test` (the root jest config only
 * looks under test/). Files run one at a time: they share one n8n user folder.
 */
module.exports = {
	rootDir: __dirname,
	testEnvironment: 'node',
	testMatch: ['<rootDir>/**/*.e2e.test.js'],
	transform: {},
	globalSetup: '<rootDir>/global-setup.js',
	testTimeout: 300_000,
	maxWorkers: 1,
	verbose: true,
	// The n8n 1.x run (npm run test:e2e:n8n1) leaves out the editor's browser checks.
	...(process.env.GRIDBANK_E2E_SKIP_EDITOR === '1'
		? { testNamePattern: '^(?!the editor in headless Chromium)' }
		: {}),
};
