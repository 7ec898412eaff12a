// Docs that match the code: every file or folder a hand-written doc names exists (rules in
// CONTRIBUTING "Docs that match the code"; the checker is doc-paths.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { anchors, brokenPaths, type RepoView } from './doc-paths';

const root = resolve(__dirname, '..', '..');
const rel = (path: string) => relative(root, path).split('\\').join('/');

/** .gitignore's patterns: what the build, the tools and the tests create, never in a clone. */
const ignored = readFileSync(join(root, '.gitignore'), 'utf8')
	.split('\n')
	.map((line) => line.trim().replace(/\/$/, ''))
	.filter((line) => line && !line.startsWith('#'));

function isGenerated(path: string): boolean {
	const segments = path.replace(/\/$/, '').split('/');
	return ignored.some((pattern) => {
		if (pattern.includes('/')) return path === pattern || path.startsWith(`${pattern}/`);
		if (pattern.startsWith('*')) return segments.some((s) => s.endsWith(pattern.slice(1)));
		return segments.includes(pattern);
	});
}

function walk(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (name === '.git' || isGenerated(rel(path))) return [];
		return statSync(path).isDirectory() ? walk(path) : [rel(path)];
	});
}

const files = walk(root);
const fileNames = new Set(files.map((file) => file.split('/').pop() as string));

const repo: RepoView = {
	topLevel: new Set(readdirSync(root).filter((name) => name !== '.git')),
	exists: (path) => existsSync(join(root, path)),
	hasFileNamed: (name) => fileNames.has(name),
	isGenerated,
	scripts: new Set(
		Object.keys(
			(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: object }).scripts,
		),
	),
	anchorsOf: (path) =>
		existsSync(join(root, path)) ? anchors(readFileSync(join(root, path), 'utf8')) : undefined,
};

/**
 * The docs checked: every markdown file of the repository but the CHANGELOG (a history: it may
 * name what was since removed) and the benchmark's results (`bench/results/`, written by
 * `npm run bench`).
 */
const docs = files.filter(
	(file) => file.endsWith('.md') && file !== 'CHANGELOG.md' && !file.startsWith('bench/results/'),
);

test('the docs checked include the README, CONTRIBUTING, docs/ and the folders’ READMEs', () => {
	expect(docs).toEqual(
		expect.arrayContaining([
			'README.md',
			'CONTRIBUTING.md',
			'docs/architecture.md',
			'docs/gridbank-api.md',
			'e2e/README.md',
			'simulator/README.md',
		]),
	);
});

test.each(docs)('every path %s names exists', (doc) => {
	const broken = brokenPaths(doc, readFileSync(join(root, doc), 'utf8'), repo);
	expect(broken.map((b) => `${b.doc}:${b.line}: ${b.text} (${b.reason})`)).toEqual([]);
});

describe('the checker finds what is broken', () => {
	const check = (markdown: string) =>
		brokenPaths('docs/example.md', markdown, repo).map((b) => `${b.text}: ${b.reason}`);

	test('code spans: repo paths and file names that do not exist', () => {
		expect(
			check(
				'See `test/partner/download.test.ts`, `nodes/shared/transport/client.ts`, ' +
					'`no-such-module.test.ts` and `layout.test.ts`.',
			),
		).toEqual([
			'test/partner/download.test.ts: no such file or folder',
			'no-such-module.test.ts: no file of this name in the repository',
		]);
	});

	test('code blocks: words that are repo paths', () => {
		expect(
			check('```sh\njest test/partner/download.test.ts test/package/layout.test.ts\n```'),
		).toEqual(['test/partner/download.test.ts: no such file or folder']);
	});

	test('commands: npm run scripts that package.json does not have', () => {
		expect(check('`npm run test:e2e` and\n```sh\nnpm run e2e\n```\nthen npm run demo')).toEqual([
			'npm run e2e: no such script in package.json',
		]);
	});

	test('links: relative to the doc, anchors in markdown, the repository’s own GitHub URLs', () => {
		expect(
			check(
				'[a](architecture.md) [b](../README.md#errors) [c](../README.md#no-such-heading) ' +
					'[d](missing.md) [e](https://example.com/x.md) ' +
					'[f](https://raw.githubusercontent.com/gridbank/n8n-nodes-gridbank/main/examples/none.json) ' +
					'[g](https://github.com/gridbank/n8n-nodes-gridbank/blob/main/package.json)',
			),
		).toEqual([
			'../README.md#no-such-heading: no heading #no-such-heading in README.md',
			'missing.md: no such file or folder',
			'https://raw.githubusercontent.com/gridbank/n8n-nodes-gridbank/main/examples/none.json: no such file or folder',
		]);
	});

	test('not paths: templates, globs, commands, URLs, machine paths, generated locations, code blocks', () => {
		expect(
			check(
				'`actions/<resource>/` `test/**` `npm run demo` `https://api2.gridbank.io` ' +
					'`~/.n8n/nodes` `/home/node/.n8n` `.cache/n8n` `bench/tmp/` `dist/` `packages/cli/x.ts`\n' +
					'```\nmkdir -p ~/.n8n/nodes && cd actions/video/ && curl 127.0.0.1:4010/partner/v1\n```',
			),
		).toEqual([]);
	});
});
