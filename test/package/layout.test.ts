// The shape of nodes/ as docs/architecture.md describes it, read from the import graph: no
// import circle between files anywhere in the tree, nodes/ folders in a fixed layer order that
// no import runs back up (so no circle between them either), no node reaching into another
// node's actions (a node shares through its transport/ or nodes/shared), and every runtime file
// small enough to read in one sitting.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { circles, graphOf, rel, root, sourceFiles } from './import-graph';

const MAX_LINES = 200;
const files = sourceFiles(join(root, 'nodes'));
const graph = graphOf(files);

/**
 * The layers of nodes/, lowest first (docs/architecture.md, "Layers"). A unit is a node folder,
 * a folder of nodes/shared/ or a file at its root; it imports only units of lower layers.
 */
const LAYERS: Array<[layer: string, units: RegExp]> = [
	['package version', /^nodes\/shared\/version\.ts$/],
	['transport', /^nodes\/shared\/transport\/$/],
	['input checks', /^nodes\/shared\/(validate|zoned-time)\.ts$/],
	['parameter readers', /^nodes\/shared\/read-parameters\.ts$/],
	['item context', /^nodes\/shared\/item-context\.ts$/],
	['operation shape', /^nodes\/shared\/operation\.ts$/],
	['download', /^nodes\/shared\/download\/$/],
	['storage copy', /^nodes\/shared\/storage\/$/],
	['descriptions', /^nodes\/shared\/descriptions\/$/],
	['list search', /^nodes\/shared\/methods\/$/],
	['item loop', /^nodes\/shared\/run-items\.ts$/],
	['trigger poll', /^nodes\/shared\/trigger\/$/],
	['action nodes', /^nodes\/(?!shared\/)\w+(?<!Trigger)\/$/],
	['trigger nodes', /^nodes\/\w+Trigger\/$/],
];

/** nodes/<Node>/, nodes/shared/<folder>/ or nodes/shared/<file>.ts. */
function unitOf(file: string): string {
	const parts = rel(file).split('/');
	if (parts[1] !== 'shared') return `nodes/${parts[1]}/`;
	return parts.length > 3 ? `nodes/shared/${parts[2]}/` : rel(file);
}
const layerOf = (unit: string) => LAYERS.findIndex(([, units]) => units.test(unit));
const arrows = [...graph].flatMap(([file, targets]) =>
	targets
		.filter((target) => unitOf(target) !== unitOf(file))
		.map((target) => ({
			file: rel(file),
			target: rel(target),
			from: unitOf(file),
			to: unitOf(target),
		})),
);

test('no import circle between files anywhere in the tree', () => {
	const tree = ['nodes', 'credentials', 'simulator', 'bench', 'scripts', 'test', 'e2e'];
	const all = graphOf(tree.flatMap((dir) => sourceFiles(join(root, dir))));
	expect(circles(all).map((group) => group.map(rel).join(' <-> '))).toEqual([]);
});

test('every folder of nodes/ has its place in the layer order', () => {
	const units = [...new Set(files.map(unitOf))];
	expect(units.filter((unit) => layerOf(unit) < 0)).toEqual([]);
	const ambiguous = units.filter((u) => LAYERS.filter(([, units]) => units.test(u)).length > 1);
	expect(ambiguous).toEqual([]);
});

test('no circle between the folders of nodes/', () => {
	const units = new Map<string, Set<string>>();
	for (const { from, to } of arrows) units.set(from, (units.get(from) ?? new Set()).add(to));
	expect(circles(units).map((group) => group.join(' <-> '))).toEqual([]);
});

test('no import runs up (or across) the layers of nodes/', () => {
	const upward = arrows
		.filter(({ from, to }) => layerOf(to) >= layerOf(from))
		.map(({ file, target, from, to }) => {
			const [fromLayer, toLayer] = [LAYERS[layerOf(from)]?.[0], LAYERS[layerOf(to)]?.[0]];
			return `${file} (${fromLayer}) -> ${target} (${toLayer})`;
		});
	expect(upward).toEqual([]);
});

test("no node imports another node's actions", () => {
	const nodeOf = (file: string) => file.split('/')[1];
	const crossings = arrows
		.filter(({ file, target }) => nodeOf(target) !== 'shared' && nodeOf(target) !== nodeOf(file))
		.filter(({ target }) => !target.startsWith(`nodes/${nodeOf(target)}/transport/`))
		.map(({ file, target }) => `${file} -> ${target}`);
	expect(crossings).toEqual([]);
});

test('shared code never imports a node', () => {
	const upward = arrows
		.filter(
			({ file, target }) => file.startsWith('nodes/shared/') && !target.startsWith('nodes/shared/'),
		)
		.map(({ file, target }) => `${file} -> ${target}`);
	expect(upward).toEqual([]);
});

test('helpers take the item, not its parts (below the item, transport takes the index)', () => {
	const parts = /[(,]\s*(itemIndex: number|node: INode)\s*[,)]/;
	const below = /^nodes\/shared\/(transport\/|item-context\.ts$)/;
	const taking = files
		.filter((file) => !below.test(rel(file)))
		.filter((file) => parts.test(readFileSync(file, 'utf8').replace(/\s+/g, ' ')))
		.map(rel);
	expect(taking).toEqual([]);
});

test("one file-naming convention: kebab-case, besides n8n's required <Node>.node.ts and .node.json", () => {
	const names = sourceFiles(join(root, 'nodes'))
		.concat(sourceFiles(join(root, 'credentials')))
		.map(rel)
		.filter((file) => !/\/[A-Z]\w+\.(node|credentials)\.ts$/.test(file))
		.filter((file) => !/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z]+)?\.ts$/.test(file.split('/').pop()!));
	expect(names).toEqual([]);
});

test(`every runtime file under ${MAX_LINES} lines`, () => {
	const long = files
		.map((file) => ({ file: rel(file), lines: readFileSync(file, 'utf8').split('\n').length }))
		.filter(({ lines }) => lines >= MAX_LINES);
	expect(long).toEqual([]);
});
