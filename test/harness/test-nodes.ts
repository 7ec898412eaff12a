// Tiny node types the test workflows use: a manual trigger, a node that emits the items a test
// wants to feed into the node under test (one per input item), and an agent that takes tools.
import type { StructuredToolInterface } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

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
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as Array<
			Record<string, never>
		>;
		return [items.map((json) => ({ json, pairedItem: { item: 0 } }))];
	}
}

/**
 * Stands in for n8n's AI Agent: it takes tools on its ai_tool input, exactly as the Agent does
 * (getInputConnectionData, so n8n-core itself turns each connected node into a tool), and instead
 * of asking a model it reports what a model would be shown (name, description, JSON schema) and
 * makes the calls listed in its `calls` parameter.
 */
export class TestAgent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agent',
		name: 'test.agent',
		group: ['transform'],
		version: 1,
		description: 'Reports its tools and calls them',
		defaults: { name: 'Agent' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiTool, displayName: 'Tool', required: true },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Calls', name: 'calls', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const connected = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as
			| StructuredToolInterface[]
			| StructuredToolInterface;
		const tools = Array.isArray(connected) ? connected : [connected];
		const calls = JSON.parse(this.getNodeParameter('calls', 0) as string) as Array<{
			tool?: string;
			args: Record<string, unknown>;
		}>;
		const results: IDataObject[] = [];
		for (const call of calls) {
			const tool = tools.find(
				(candidate) => call.tool === undefined || candidate.name === call.tool,
			);
			if (!tool) throw new Error(`no tool ${call.tool}`);
			try {
				results.push({ output: String(await tool.invoke(call.args)) });
			} catch (error) {
				results.push({ error: (error as Error).message });
			}
		}
		const shown = tools.map((tool) => ({
			name: tool.name,
			description: tool.description,
			schema: toJsonSchema(tool.schema) as IDataObject,
		}));
		return [[{ json: { tools: shown, results } as IDataObject, pairedItem: { item: 0 } }]];
	}
}
