// Two tiny node types the test workflows start with: a manual trigger, and a node that
// emits the items a test wants to feed into the node under test (one per input item).
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

export class TestManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger',
		name: 'test.manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Starts the test workflow',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: ['main'],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

export class TestItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Items',
		name: 'test.items',
		group: ['transform'],
		version: 1,
		description: 'Emits the items given as JSON',
		defaults: { name: 'Items' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as Array<Record<string, never>>;
		return [items.map((json) => ({ json, pairedItem: { item: 0 } }))];
	}
}
