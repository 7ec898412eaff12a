// The shape of nodes/ as docs/architecture.md describes it, read from the import graph: no
// import circle, no node reaching into another node's actions (a node shares through its
// transport/ or nodes/shared), and every runtime file small enough to read in one sitting.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
const nodesDir = join(root, 'nodes');
const MAX_LINES = 200;

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

const files = sourceFiles(nodesDir);
const rel = (path: string) => relative(root, path).split('\\').join('/');

/** Relative imports of one file (type-only ones too: they make circles for readers all the same). */
function importsOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']*)'/g)].map((m) => m[1]);
	return specifiers.map((spec) => {
		const base = resolve(dirname(file), spec);
		const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) =>
			existsSync(candidate),
		);
		if (!target) throw new Error(`${rel(file)}: cannot resolve '${spec}'`);
		return target;
	});
}

const graph = new Map(files.map((file) => [file, importsOf(file)]));

test('no import circle in nodes/', () => {
	const state = new Map<string, 'open' | 'done'>();
	const circles: string[] = [];
	const visit = (file: string, path: string[]) => {
		if (state.get(file) === 'done') return;
		if (state.get(file) === 'open') {
			circles.push([...path.slice(path.indexOf(file)), file].map(rel).join(' -> '));
			return;
		}
		state.set(file, 'open');
		for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
		state.set(file, 'done');
	};
	for (const file of files) visit(file, []);
	expect(circles).toEqual([]);
});

test("no node imports another node's actions", () => {
	const nodeOf = (file: string) => rel(file).split('/')[1];
	const crossings = [...graph].flatMap(([file, targets]) =>
		targets
			.filter((target) => nodeOf(target) !== 'shared' && nodeOf(target) !== nodeOf(file))
			.filter((target) => !rel(target).startsWith(`nodes/${nodeOf(target)}/transport/`))
			.map((target) => `${rel(file)} -> ${rel(target)}`),
	);
	expect(crossings).toEqual([]);
});

test('shared code never imports a node', () => {
	const upward = [...graph].flatMap(([file, targets]) =>
		rel(file).startsWith('nodes/shared/')
			? targets
					.filter((t) => !rel(t).startsWith('nodes/shared/'))
					.map((t) => `${rel(file)} -> ${rel(t)}`)
			: [],
	);
	expect(upward).toEqual([]);
});

test(`every runtime file under ${MAX_LINES} lines`, () => {
	const long = files
		.map((file) => ({ file: rel(file), lines: readFileSync(file, 'utf8').split('\n').length }))
		.filter(({ lines }) => lines >= MAX_LINES);
	expect(long).toEqual([]);
});
