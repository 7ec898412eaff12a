// Runs a test workflow through n8n-core's WorkflowExecute in manual mode, from its first node,
// and waits for n8n's own "workflow finished" hook: the shared part of run-node and ai-tools.
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	IConnections,
	ICredentialDataDecryptedObject,
	INode,
	IRun,
	IWorkflowBase,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { testAdditionalData } from './additional-data';
import { initBinaryDataService, runFrom } from './engine';
import { nodeTypes } from './node-types';

let binaryDataReady: Promise<void> | undefined;
/** BinaryDataService must be initialised once, or binaries silently stay in memory. */
export const initBinaryData = () => (binaryDataReady ??= initBinaryDataService());

export interface WorkflowRun {
	run: IRun;
	workflowId: string;
	executionId: string;
}

let executionCounter = 0;

export async function executeWorkflow(options: {
	workflowId: string;
	nodes: INode[];
	connections: IConnections;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Called with the running execution, e.g. to cancel it. */
	onStart?: (execution: { cancel: () => void }) => void;
	/** The workflow's settings (e.g. its timezone). */
	settings?: IWorkflowBase['settings'];
}): Promise<WorkflowRun> {
	await initBinaryData();
	const { workflowId, nodes, connections } = options;
	const executionId = `${Date.now()}${++executionCounter}`;
	const settings = options.settings ?? {};
	const workflow = new Workflow({
		id: workflowId,
		nodes,
		connections,
		nodeTypes,
		active: false,
		settings,
	});
	const workflowData: IWorkflowBase = {
		id: workflowId,
		name: workflowId,
		active: false,
		isArchived: false,
		nodes,
		connections,
		settings,
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	};
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	let finished: (run: IRun) => void = () => {};
	const done = new Promise<IRun>((resolve) => (finished = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => finished(run));

	const additionalData = testAdditionalData({
		credentials: options.credentials,
		workflowId,
		executionId,
		hooks,
	});
	const execution = runFrom(new WorkflowExecute(additionalData, 'manual'), workflow, nodes[0]);
	options.onStart?.({ cancel: () => execution.cancel() });
	await execution.catch(() => undefined);
	return { run: await done, workflowId, executionId };
}
