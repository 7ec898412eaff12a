// Copies what tsc does not emit (SVG icons, codex .node.json files) into dist/, beside the compiled nodes.
const { src, dest, task } = require('gulp');

task('build:assets', () =>
	src(['nodes/**/*.{svg,png,json}', 'credentials/**/*.{svg,png}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist')),
);
