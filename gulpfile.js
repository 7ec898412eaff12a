// Copies what tsc does not emit (SVG icons, codex .node.json files) into dist/, beside the compiled nodes.
const fs = require('node:fs');
const path = require('node:path');
const { src, dest, series, task } = require('gulp');

/** What the package ships under dist/: the nodes and the credentials, nothing else. */
const SHIPPED = new Set(['nodes', 'credentials']);

const copyAssets = () =>
	src(['nodes/**/*.{svg,png,json}', 'credentials/**/*.{svg,png}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));

// `n8n-node build` copies every PNG and SVG of the repository into dist/ (docs/images/,
// e2e-artifacts/ too): only the nodes' and credentials' own go into the package.
async function pruneDist() {
	for (const name of fs.readdirSync('dist'))
		if (!SHIPPED.has(name)) fs.rmSync(path.join('dist', name), { recursive: true, force: true });
}

task('build:assets', series(copyAssets, pruneDist));
