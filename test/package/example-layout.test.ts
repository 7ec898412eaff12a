// The examples are what a user first sees of the package in the editor (and the README's picture
// is one of them): a sticky note laid over the nodes hides them, so none may cover a node.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** n8n draws a node as a 100 × 100 box from its position; a sticky note is width × height. */
const NODE_SIZE = 100;

interface Placed {
	name: string;
	type: string;
	position?: [number, number];
	parameters: Record<string, unknown>;
}

const folder = join(__dirname, '..', '..', 'examples');
const files = readdirSync(folder).filter((f) => f.endsWith('.json'));

test.each(files)('%s: no sticky note covers a node', (file) => {
	const { nodes } = JSON.parse(readFileSync(join(folder, file), 'utf8')) as { nodes: Placed[] };
	const notes = nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote');
	expect(notes.length).toBeGreaterThan(0);
	for (const note of notes) {
		const [x, y] = note.position!;
		const width = Number(note.parameters.width ?? 240);
		const height = Number(note.parameters.height ?? 160);
		const covered = nodes
			.filter((n) => n !== note && n.position)
			.filter(({ position: [nx, ny] = [0, 0] }) => {
				const apart =
					nx >= x + width || nx + NODE_SIZE <= x || ny >= y + height || ny + NODE_SIZE <= y;
				return !apart;
			})
			.map((n) => n.name);
		expect(covered).toEqual([]);
	}
});
