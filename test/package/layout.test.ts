// The shape of nodes/ as docs/architecture.md describes it, read from the import graph: no
// import circle between files anywhere in the tree, nodes/ folders in a fixed layer order that
// no import runs back up (so no circle between them either), no node reaching into another
// node's actions (a node shares through its transport/, its descriptions/ or nodes/shared), the
// editor's properties and the code that runs kept in rooms of their own, and every file of nodes/
// small enough to read in one sitting.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { circles, graphOf, rel, root, sourceFiles } from './import-graph';

const MAX_LINES = 200;
const files = sourceFiles(join(root, 'nodes'));
const graph = graphOf(files);
const source = (file: string) => readFileSync(join(root, file), 'utf8');

/**
 * The layers of nodes/, lowest first (docs/architecture.md, "Layers"). A unit is a node folder,
 * a folder of nodes/shared/ or a file at its root; it imports only units of lower layers. Each
 * shared unit is runtime (runs in an execution or poll) or editor (the properties n8n's editor
 * shows), never both.
 */
const LAYERS: Array<[layer: string, units: RegExp]> = [
	['package version (runtime)', /^nodes\/shared\/version\.ts$/],
	['transport (runtime)', /^nodes\/shared\/transport\/$/],
	['input checks (runtime)', /^nodes\/shared\/(validate|zoned-time)\.ts$/],
	['parameter readers (runtime)', /^nodes\/shared\/read-parameters\.ts$/],
	['video shape (runtime)', /^nodes\/shared\/video-shape\.ts$/],
	['item context (runtime)', /^nodes\/shared\/item-context\.ts$/],
	['operation shape (types)', /^nodes\/shared\/operation\.ts$/],
	['download (runtime)', /^nodes\/shared\/download\/$/],
	['storage copy (runtime)', /^nodes\/shared\/storage\/$/],
	['descriptions (editor)', /^nodes\/shared\/descriptions\/$/],
	['list search (runtime)', /^nodes\/shared\/methods\/$/],
	['item loop (runtime)', /^nodes\/shared\/run-items\.ts$/],
	['trigger poll (runtime)', /^nodes\/shared\/trigger\/$/],
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

test("no node imports another node's actions (only its transport/ and descriptions/)", () => {
	const nodeOf = (file: string) => file.split('/')[1];
	const shared = (target: string) => /^nodes\/\w+\/(transport|descriptions)\//.test(target);
	const crossings = arrows
		.filter(({ file, target }) => nodeOf(target) !== 'shared' && nodeOf(target) !== nodeOf(file))
		.filter(({ target }) => !shared(target))
		.map(({ file, target }) => `${file} -> ${target}`);
	expect(crossings).toEqual([]);
});

/**
 * The editor's rooms: descriptions/ folders (shared and a node's), and what n8n's own layout puts
 * beside them (a node's <Node>.node.ts and actions/: an operation is its properties and its
 * execute). Everything else runs in an execution or a poll.
 */
const EDITOR = /^nodes\/(\w+\/)?descriptions\/|^nodes\/\w+\/(actions\/|\w+\.node\.ts$)/;

test('editor properties only in editor rooms: no runtime file declares or imports one', () => {
	const runtime = files.map(rel).filter((file) => !EDITOR.test(file));
	const declaring = runtime.filter((file) => /\bdisplayName\s*:/.test(source(file)));
	expect(declaring).toEqual([]);
	const reaching = [...graph].flatMap(([file, targets]) =>
		targets
			.filter((target) => !EDITOR.test(rel(file)) && EDITOR.test(rel(target)))
			.map((target) => `${rel(file)} -> ${rel(target)}`),
	);
	expect(reaching).toEqual([]);
});

test('descriptions/ runs nothing: from runtime modules it imports only types and constants', () => {
	const IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*'(\.[^']+)'/g;
	const runtimeValues = files
		.map(rel)
		.filter((file) => /\/descriptions\//.test(file))
		.flatMap((file) =>
			[...source(file).matchAll(IMPORT)]
				.filter(([, typeOnly, , from]) => !typeOnly && !/^\.\/|\/descriptions\//.test(from))
				.flatMap(([, , names, from]) =>
					names
						.split(',')
						.map((name) => name.trim())
						.filter((name) => name && !name.startsWith('type ') && !/^[A-Z][A-Z0-9_]*$/.test(name))
						.map((name) => `${file}: ${name} from ${from}`),
				),
		);
	expect(runtimeValues).toEqual([]);
	const descriptions = files.map(rel).filter((file) => /\/descriptions\//.test(file));
	expect(descriptions.filter((file) => /\basync\b/.test(source(file)))).toEqual([]);
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

test(`every file of nodes/ under ${MAX_LINES} lines (tests, simulator, benchmark and scripts have no such bound)`, () => {
	const long = files
		.map((file) => ({ file: rel(file), lines: readFileSync(file, 'utf8').split('\n').length }))
		.filter(({ lines }) => lines >= MAX_LINES);
	expect(long).toEqual([]);
});

test("API paths are written only in the profiles (nodes' requests and the credentials' tests)", () => {
	const PATH = /(['"`])\/[a-z_]+(\/[^'"`]*)?\1(?!\s*:)/;
	const shipped = files.concat(sourceFiles(join(root, 'credentials'))).map(rel);
	const writing = shipped
		.filter((file) => !/^nodes\/\w+\/transport\/profile\.ts$/.test(file))
		.filter((file) => PATH.test(source(file).replace(/^\s*(\/\/|\*).*$/gm, '')));
	expect(writing).toEqual([]);
});

test('one helper per job: header(), isObject, mib() and MiB are defined once (transport/values.ts)', () => {
	const DEFINES = /(const|function)\s+(header|headerOf|isObject|mib|MiB|MIB)\b\s*[=(<]/g;
	const definitions = files
		.map(rel)
		.flatMap((file) => [...source(file).matchAll(DEFINES)].map((m) => `${m[2]} in ${file}`));
	expect(definitions.sort()).toEqual(
		['header', 'isObject', 'mib', 'MiB']
			.map((name) => `${name} in nodes/shared/transport/values.ts`)
			.sort(),
	);
});

test("no setter of a shared limit ships: the rate window is the profile's, Parallel Connections' bounds are its reader's", () => {
	const setters = files
		.map(rel)
		.filter((file) => /export function set(PacingWindow|RateWindow)\b/.test(source(file)));
	expect(setters).toEqual([]);
	const bounds = files
		.map(rel)
		.filter((file) => /\b(MIN|MAX|DEFAULT)_CONNECTIONS\s*=/.test(source(file)));
	expect(bounds).toEqual(['nodes/shared/read-parameters.ts']);
});

test('parameters are read through the item: getNodeParameter only in item-context.ts (and the router)', () => {
	const reading = files
		.map(rel)
		.filter((file) => /getNodeParameter\s*\(/.test(source(file)))
		.filter((file) => !/^nodes\/shared\/(item-context|run-items)\.ts$/.test(file));
	expect(reading).toEqual([]);
});

test('shared code never branches on which node or API called it (differences are profile data)', () => {
	const BRANCH =
		/[!=]==\s*['"]gridBank|['"]gridBank\w*['"]\s*[!=]==|credentialType\s*[!=]==|\.label\s*[!=]==/;
	const branching = files
		.map(rel)
		.filter((file) => file.startsWith('nodes/shared/') && BRANCH.test(source(file)));
	expect(branching).toEqual([]);
});

describe('every node folder has its layout', () => {
	const folders = readdirSync(join(root, 'nodes')).filter((name) => name !== 'shared');
	const has = (path: string) => existsSync(join(root, 'nodes', path));
	test.each(folders.filter((f) => !f.endsWith('Trigger')))('action node %s', (node) => {
		expect(has(`${node}/${node}.node.ts`)).toBe(true);
		expect(has(`${node}/transport/profile.ts`)).toBe(true);
		for (const resource of readdirSync(join(root, 'nodes', node, 'actions')))
			expect(has(`${node}/actions/${resource}/${resource}.resource.ts`)).toBe(true);
	});
	test.each(folders.filter((f) => f.endsWith('Trigger')))('trigger node %s', (node) => {
		const own = readdirSync(join(root, 'nodes', node)).filter((name) => name.endsWith('.ts'));
		expect(own.sort()).toEqual([`${node}.node.ts`, 'poll.ts', 'seen-state.ts']);
		expect(has(`${node.replace(/Trigger$/, '')}/transport/profile.ts`)).toBe(true);
	});
});

test('the test tree mirrors the source: each node folder and each nodes/shared/ folder has its tests', () => {
	const folders = readdirSync(join(root, 'nodes'), { withFileTypes: true })
		.filter((entry) => entry.isDirectory() && entry.name !== 'shared')
		.map((entry) => entry.name)
		.concat(
			readdirSync(join(root, 'nodes', 'shared'), { withFileTypes: true })
				.filter((entry) => entry.isDirectory())
				.map((entry) => `shared/${entry.name}`),
		);
	const untested = folders.filter(
		(folder) =>
			!sourceFiles(join(root, 'test', 'nodes', folder)).some((f) => f.endsWith('.test.ts')),
	);
	expect(untested).toEqual([]);
});

test('scripts/ folders import in one direction (scripts/README.md): toolchain and services, then n8n, then queue', () => {
	const RANK: Record<string, number> = { toolchain: 0, services: 0, n8n: 1, queue: 2 };
	const folderOf = (file: string) => /^scripts\/(\w+)\//.exec(rel(file))?.[1];
	const scripts = graphOf(sourceFiles(join(root, 'scripts')));
	const against = [...scripts].flatMap(([file, targets]) =>
		targets
			.filter((target) => {
				const [from, to] = [folderOf(file), folderOf(target)];
				return from !== undefined && to !== undefined && from !== to && RANK[to]! >= RANK[from]!;
			})
			.map((target) => `${rel(file)} -> ${rel(target)}`),
	);
	expect(against).toEqual([]);
	const folders = readdirSync(join(root, 'scripts'), { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.map((entry) => entry.name);
	expect(folders.sort()).toEqual(Object.keys(RANK).sort());
});
