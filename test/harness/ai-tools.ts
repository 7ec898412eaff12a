// Our action nodes as an AI Agent's tools, the way n8n 2.41 builds them:
// - n8n's server turns a `usableAsTool` node into a "<name>Tool" type (packages/cli,
//   tool-generation/ai-tools.ts `convertNodeToAiTool`, applied by NodeTypes.getByNameAndVersion).
//   packages/cli is not a dependency of this package, so `asAiTool` below is that description
//   rewrite; when n8n itself is installed (.cache/n8n, by the e2e suite or `npm run dev`), the
//   tests compare it with n8n's own function.
// - The editor fills a parameter the model should define with a $fromAI() expression
//   (editor-ui fromAIOverride.utils.ts `buildValueFromOverride`); `fromAI` below writes the same.
// - n8n-core does the rest, for real: the Agent's getInputConnectionData turns the connected node
//   into a LangChain tool (createNodeAsTool: name from the node name, description from the
//   operation's action, schema from the $fromAI() calls) and runs the node when the tool is called.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type {
	IConnections,
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IRun,
} from 'n8n-workflow';
import {
	deepCopy,
	FROM_AI_AUTO_GENERATED_MARKER,
	NodeConnectionTypes,
	NodeHelpers,
} from 'n8n-workflow';

import { nodeTypes, registerNodeType } from './node-types';
import { executeWorkflow } from './execute-workflow';

const PACKAGE = 'n8n-nodes-gridbank';

/** n8n's convertNodeToAiTool (packages/cli/src/tool-generation/ai-tools.ts, 2.41), for a full description. */
export function asAiTool<T extends { description: INodeTypeDescription }>(item: T): T {
	const description = item.description;
	description.name += 'Tool';
	description.inputs = [];
	description.outputs = [NodeConnectionTypes.AiTool];
	description.displayName += ' Tool';
	delete description.usableAsTool;
	const hasResourceOrOperation = description.properties.some(
		(p) => p.name === 'resource' || p.name === 'operation',
	);
	if (!description.properties.some((p) => p.name === 'toolDescription')) {
		const descProp: INodeProperties = {
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: description.description,
			required: true,
			typeOptions: { rows: 2 },
			description:
				'Explain to the LLM what this tool does, a good, specific description would allow LLMs to produce expected results much more often',
		};
		let lastCallout = -1;
		description.properties.forEach(
			(p, i) => (lastCallout = p.type === 'callout' ? i : lastCallout),
		);
		description.properties.splice(lastCallout + 1, 0, descProp);
		if (hasResourceOrOperation) {
			description.properties.splice(lastCallout + 1, 0, {
				displayName: 'Tool Description',
				name: 'descriptionType',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Set Automatically',
						value: 'auto',
						description: 'Automatically set based on resource and operation',
					},
					{ name: 'Set Manually', value: 'manual', description: 'Manually set the description' },
				],
				default: 'auto',
			});
			descProp.displayOptions = { show: { descriptionType: ['manual'] } };
		}
	}
	const resources = description.codex?.resources ?? {};
	const existingTools = description.codex?.subcategories?.Tools;
	description.codex = {
		categories: ['AI'],
		subcategories: { AI: ['Tools'], Tools: existingTools ?? ['Other Tools'] },
		resources,
	};
	return item;
}

/** A file of the real n8n installed in .cache/n8n (by the e2e suite, the demo or `npm run dev`), if it is. */
export function installedN8nFile(...path: string[]): string | undefined {
	const file = join(__dirname, '..', '..', '.cache', 'n8n', 'node_modules', ...path);
	return existsSync(file) ? file : undefined;
}

/** n8n's own convertNodeToAiTool, when n8n is installed in .cache/n8n. */
export function installedConvertNodeToAiTool(): typeof asAiTool | undefined {
	const file = installedN8nFile('n8n', 'dist', 'tool-generation', 'ai-tools.js');
	if (!file) return undefined;
	return (require(file) as { convertNodeToAiTool: typeof asAiTool }).convertNodeToAiTool;
}

/** The "<name>Tool" type n8n derives from one of our node types (and registers it for the engine). */
export function toolType(shortName: string): INodeType {
	const base = nodeTypes.getByNameAndVersion(`${PACKAGE}.${shortName}`, 1) as INodeType;
	const tool = Object.create(base, {
		description: { value: deepCopy(base.description) },
	}) as INodeType;
	asAiTool(tool as { description: INodeTypeDescription });
	registerNodeType(`${shortName}Tool`, tool);
	return tool;
}

/** What the editor writes into a parameter when the user lets the model define it. */
export function fromAI(
	property: Pick<INodeProperties, 'displayName' | 'type'>,
	description: string,
): string {
	const key = property.displayName.replace(/[^a-zA-Z0-9-]/g, '_').slice(0, 63);
	const type = ['boolean', 'number', 'json'].includes(property.type) ? property.type : 'string';
	const quote =
		description.includes('\n') || !description.includes('`')
			? '`'
			: !description.includes('"')
				? '"'
				: "'";
	const text = description.replaceAll('\\', '\\\\').replaceAll(quote, `\\${quote}`);
	return `={{ ${FROM_AI_AUTO_GENERATED_MARKER} $fromAI('${key}', ${quote}${text}${quote}, '${type}') }}`;
}

/**
 * A tool node's parameters as the editor leaves them: the node's defaults for this operation,
 * and each parameter in `modelDefines` handed to the model with its own description (a resource
 * locator keeps its mode, the value becomes the expression).
 */
export function toolNodeParameters(
	type: INodeType,
	chosen: INodeParameters,
	modelDefines: string[],
): INodeParameters {
	const properties = type.description.properties;
	const node = {
		type: type.description.name,
		typeVersion: 1,
		parameters: chosen,
	} as unknown as INode;
	const parameters =
		NodeHelpers.getNodeParameters(properties, chosen, true, false, node, type.description) ?? {};
	for (const name of modelDefines) {
		const property = properties.find(
			(p) => p.name === name && NodeHelpers.displayParameter(parameters, p, node, type.description),
		);
		if (!property) throw new Error(`${name} is not shown for ${JSON.stringify(chosen)}`);
		const expression = fromAI(property, property.description ?? '');
		parameters[name] =
			property.type === 'resourceLocator'
				? { ...(parameters[name] as IDataObject), __rl: true, value: expression }
				: expression;
	}
	return parameters;
}

export interface ShownTool {
	name: string;
	description: string;
	schema: {
		type?: string;
		properties?: Record<string, { type?: string; description?: string }>;
		required?: string[];
	};
}

export interface AgentRun {
	tools: ShownTool[];
	results: Array<{ output?: string; error?: string }>;
	run: IRun;
}

/**
 * A workflow Start → Agent with one of our nodes as the Agent's tool, run by WorkflowExecute.
 * The tool node is named as n8n names a new one (makeNodeName), which is where the tool name comes from.
 */
export async function runAgent(options: {
	tool: INodeType;
	parameters: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	calls?: Array<{ args: Record<string, unknown> }>;
}): Promise<AgentRun> {
	const workflowId = 'wf-agent';
	const toolName = NodeHelpers.makeNodeName(options.parameters, options.tool.description);
	const nodes: INode[] = [
		{
			id: '1',
			name: 'Start',
			type: 'test.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: '2',
			name: 'Agent',
			type: 'test.agent',
			typeVersion: 1,
			position: [200, 0],
			parameters: { calls: JSON.stringify(options.calls ?? []) },
		},
		{
			id: '3',
			name: toolName,
			type: `${PACKAGE}.${options.tool.description.name}`,
			typeVersion: 1,
			position: [200, 200],
			parameters: options.parameters,
			credentials: Object.fromEntries(
				Object.keys(options.credentials).map((type) => [type, { id: `cred-${type}`, name: type }]),
			),
		},
	];
	const connections: IConnections = {
		Start: { main: [[{ node: 'Agent', type: NodeConnectionTypes.Main, index: 0 }]] },
		[toolName]: { ai_tool: [[{ node: 'Agent', type: NodeConnectionTypes.AiTool, index: 0 }]] },
	};
	const { run, executionId } = await executeWorkflow({
		workflowId,
		nodes,
		connections,
		credentials: options.credentials,
	});
	await Container.get(BinaryDataService).deleteMany([
		{ type: 'execution', workflowId, executionId },
	]);
	const task = run.data.resultData.runData.Agent?.[0];
	if (!task?.data)
		throw new Error(
			`The agent did not run: ${run.data.resultData.error?.message ?? task?.error?.message ?? 'no run data'}`,
		);
	const json = task.data.main[0]?.[0]?.json as unknown as {
		tools: ShownTool[];
		results: AgentRun['results'];
	};
	return { ...json, run };
}
