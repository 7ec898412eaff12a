// The relative imports of the source tree (import, export … from, require, import()), read from
// the files themselves, for the layout test's circle and layer checks.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const root = resolve(__dirname, '..', '..');
const SOURCE = /\.(ts|js|mjs|cjs)$/;
const SKIP = new Set(['node_modules', 'dist', '.cache', '.tools', 'tmp', 'e2e-artifacts']);
const SPECIFIER =
	/(?:^|[^.\w])(?:import|export)\s[^'"`;]*?from\s*['"](\.[^'"]+)['"]|(?:^|[^.\w])import\s*['"](\.[^'"]+)['"]|\b(?:require|import)\s*\(\s*['"](\.[^'"]+)['"]\s*\)/gm;

export const rel = (path: string) => relative(root, path).split('\\').join('/');

export function sourceFiles(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return SKIP.has(name) ? [] : sourceFiles(path);
		return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
	});
}

const withoutComments = (text: string) =>
	text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/[^\n]*/g, '$1');

/** The file a relative specifier names, or undefined (a path built at run time, a compiled copy). */
function resolveSpecifier(from: string, spec: string): string | undefined {
	const base = resolve(dirname(from), spec);
	const stem = base.replace(/\.(js|mjs|cjs)$/, '');
	const candidates = [base, stem, ...['.ts', '.js', '.mjs', '.cjs'].map((ext) => stem + ext)];
	candidates.push(...['index.ts', 'index.js'].map((name) => join(base, name)));
	return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** Relative imports of one file (type-only ones too: they make circles for readers all the same). */
export function importsOf(file: string): string[] {
	const text = withoutComments(readFileSync(file, 'utf8'));
	const targets = [...text.matchAll(SPECIFIER)]
		.map((m) => resolveSpecifier(file, m[1] ?? m[2] ?? m[3]))
		.filter((target): target is string => target !== undefined && target !== file);
	return [...new Set(targets)];
}

export type Graph = Map<string, string[]>;

export const graphOf = (files: string[]): Graph =>
	new Map(files.map((file) => [file, importsOf(file)]));

/** Groups of more than one vertex that reach each other (Tarjan), each sorted. */
export function circles(graph: Map<string, Iterable<string>>): string[][] {
	let next = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const found: string[][] = [];
	const visit = (v: string) => {
		index.set(v, next);
		low.set(v, next++);
		stack.push(v);
		for (const w of graph.get(v) ?? []) {
			if (!index.has(w)) {
				visit(w);
				low.set(v, Math.min(low.get(v)!, low.get(w)!));
			} else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
		}
		if (low.get(v) !== index.get(v)) return;
		const group: string[] = [];
		for (let w = stack.pop()!; ; w = stack.pop()!) {
			group.push(w);
			if (w === v) break;
		}
		if (group.length > 1) found.push(group.sort());
	};
	for (const v of graph.keys()) if (!index.has(v)) visit(v);
	return found;
}
