/**
 * The real-engine suite against another n8n engine (npm run test:matrix): the same tests as
 * jest.config.js, with n8n-core, n8n-workflow, @n8n/di and @langchain/core taken from
 * GRIDBANK_MATRIX_DIR (.cache/matrix/<n8n-core version>) by test/harness/matrix-resolver.js.
 */
const base = require('./jest.config');

if (!process.env.GRIDBANK_MATRIX_DIR)
	throw new Error('GRIDBANK_MATRIX_DIR is not set: run this through npm run test:matrix');

module.exports = {
	...base,
	resolver: '<rootDir>/test/harness/matrix-resolver.js',
	// In the checkout, not a shared /tmp folder another user's run may own (EACCES as a CI user).
	cacheDirectory: `${__dirname}/.cache/jest-matrix-${require('node:path').basename(process.env.GRIDBANK_MATRIX_DIR)}`,
};
