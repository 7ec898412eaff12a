// An example workflow from examples/, read as n8n would import it, for the example tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ExampleNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	disabled?: boolean;
}

export interface ExampleWorkflow {
	id: string;
	nodes: ExampleNode[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
}

/** The workflow in examples/<file> and its node of type n8n-nodes-gridbank.<type>. */
export function readExample(file: string, type: string) {
	const workflow = JSON.parse(
		readFileSync(join(__dirname, '..', '..', 'examples', file), 'utf8'),
	) as ExampleWorkflow;
	const node = workflow.nodes.find((entry) => entry.type === `n8n-nodes-gridbank.${type}`);
	if (!node) throw new Error(`examples/${file} has no ${type} node`);
	return { workflow, trigger: node };
}
