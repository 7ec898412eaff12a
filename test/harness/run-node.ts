// Runs one of our nodes through n8n's real execution engine (n8n-core's WorkflowExecute),
// in process, with filesystem binary data, against whatever server the credential points at.
// Workflow: Start → Items (the test's input items) → the node under test.
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IRun,
	ITaskData,
} from 'n8n-workflow';

import { executeWorkflow } from './execute-workflow';

export { initBinaryData } from './execute-workflow';

export interface RunNodeOptions {
	/** Short type name: gridBankPartner, gridBankEnterprise. */
	type: string;
	/** Node parameters as a workflow JSON would hold them. */
	parameters: INodeParameters | Record<string, unknown>;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Items fed into the node; one empty item by default. */
	input?: Array<Record<string, unknown>> | IDataObject[];
	continueOnFail?: boolean;
	/** n8n's "Continue (using error output)": failed items on a second output (NodeRun.errorItems). */
	errorOutput?: boolean;
	/** Called with the running execution, e.g. to cancel it. */
	onStart?: (execution: { cancel: () => void }) => void;
	/** The workflow's settings, e.g. { timezone: 'Asia/Tokyo' }. */
	settings?: { timezone?: string };
}

/** Errors in run data are plain copies, not NodeApiError instances. */
export interface RunError {
	message: string;
	description?: string | null;
	httpCode?: string | null;
	context?: IDataObject;
	name?: string;
	[key: string]: unknown;
}

export interface NodeRun {
	items: INodeExecutionData[];
	/** The error output's items, with `errorOutput`. */
	errorItems: INodeExecutionData[];
	error?: RunError;
	task: ITaskData;
	run: IRun;
	workflowId: string;
	executionId: string;
}

export const NODE_NAME = 'GridBank';
const PACKAGE = 'n8n-nodes-gridbank';

export async function runNode(options: RunNodeOptions): Promise<NodeRun> {
	const workflowId = 'wf-test';
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
			name: 'Items',
			type: 'test.items',
			typeVersion: 1,
			position: [200, 0],
			parameters: { items: JSON.stringify(options.input ?? [{}]) },
		},
		{
			id: '3',
			name: NODE_NAME,
			type: `${PACKAGE}.${options.type}`,
			typeVersion: 1,
			position: [400, 0],
			parameters: options.parameters as INodeParameters,
			credentials: Object.fromEntries(
				Object.keys(options.credentials ?? {}).map((type) => [
					type,
					{ id: `cred-${type}`, name: type },
				]),
			),
			...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			...(options.errorOutput ? { onError: 'continueErrorOutput' as const } : {}),
		},
	];
	const connections = {
		Start: { main: [[{ node: 'Items', type: 'main' as const, index: 0 }]] },
		Items: { main: [[{ node: NODE_NAME, type: 'main' as const, index: 0 }]] },
	};
	const { run, executionId } = await executeWorkflow({
		workflowId,
		nodes,
		connections,
		credentials: options.credentials,
		onStart: options.onStart,
		settings: options.settings,
	});

	const task = run.data.resultData.runData[NODE_NAME]?.[0];
	if (!task) {
		const failed = run.data.resultData.error;
		throw new Error(`The node did not run: ${failed?.message ?? 'no run data'}`);
	}
	return {
		items: task.data?.main?.[0] ?? [],
		errorItems: task.data?.main?.[1] ?? [],
		error: task.error as unknown as RunError | undefined,
		task,
		run,
		workflowId,
		executionId,
	};
}

/** Deletes what a run stored in n8n's binary data folder. */
/** Every file under this run's folder of n8n's filesystem binary store (temporary partials included). */
export function storedFiles(run: Pick<NodeRun, 'workflowId' | 'executionId'>): string[] {
	const walk = (path: string): string[] => {
		try {
			return statSync(path).isDirectory()
				? readdirSync(path).flatMap((name) => walk(join(path, name)))
				: [path];
		} catch {
			return [];
		}
	};
	return walk(
		join(
			process.env.N8N_BINARY_DATA_STORAGE_PATH!,
			'workflows',
			run.workflowId,
			'executions',
			run.executionId,
		),
	);
}

export async function deleteBinaries(
	run: Pick<NodeRun, 'workflowId' | 'executionId'>,
): Promise<void> {
	await Container.get(BinaryDataService).deleteMany([
		{ type: 'execution', workflowId: run.workflowId, executionId: run.executionId },
	]);
}

/** Registers an afterEach that deletes the binaries of every run passed to the returned function. */
export function cleanUpBinaries(): (run: NodeRun) => NodeRun {
	const runs: NodeRun[] = [];
	afterEach(async () => {
		for (const run of runs.splice(0)) await deleteBinaries(run);
	});
	return (run) => {
		runs.push(run);
		return run;
	};
}

/** Reads a stored binary back through n8n's own service. */
export async function readBinary(item: INodeExecutionData, property = 'data'): Promise<Buffer> {
	const binary = item.binary?.[property];
	if (!binary) throw new Error(`no binary "${property}" on the item`);
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}

export async function binaryStream(item: INodeExecutionData, property = 'data') {
	const binary = item.binary?.[property];
	if (!binary?.id) throw new Error(`binary "${property}" was not stored by id (filesystem mode)`);
	return await Container.get(BinaryDataService).getAsStream(binary.id);
}

/** Hex SHA-256 of a stored binary, read back as a stream (filesystem mode). */
export async function binarySha256(item: INodeExecutionData, property = 'data'): Promise<string> {
	const hash = createHash('sha256');
	for await (const chunk of await binaryStream(item, property)) hash.update(chunk as Buffer);
	return hash.digest('hex');
}
