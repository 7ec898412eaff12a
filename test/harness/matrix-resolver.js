// Jest resolver for npm run test:matrix: n8n's packages (and the @langchain/core the AI tool
// tests share with n8n-core) come from the matrix folder instead of our node_modules, wherever
// they are imported from, so tests, nodes and the engine all see one copy.
const path = require('node:path');

const dir = process.env.GRIDBANK_MATRIX_DIR;
const fromMatrix = /^(n8n-core|n8n-workflow|@n8n\/di|@langchain\/core|reflect-metadata)(\/|$)/;

module.exports = (request, options) => {
	if (dir && fromMatrix.test(request))
		return options.defaultResolver(request, { ...options, basedir: dir, paths: undefined });
	return options.defaultResolver(request, options);
};
module.exports.matrixDir = dir && path.resolve(dir);
