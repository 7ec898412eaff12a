// Runs a polling trigger the way n8n does, in process, against whatever server the credential
// points at. Activation goes through n8n-core's ActiveWorkflowTriggers (pollTimes checked, the
// activation poll run, a cron registered); scheduled polls through its PollTriggerExecutor with
// n8n-core's real PollContext; "Fetch Test Event" through WorkflowExecute in manual mode.
//
// Static data is kept like n8n 2.41 keeps it (default settings, no durable poll cursors): `saved`
// plays the database row (JSON), the Workflow object the active workflow in memory. n8n writes
// the static data to the database after activation (the activation poll included) and when a
// poll emits, before the execution starts; a poll that emits nothing changes memory only, and a
// failed poll saves nothing. n8n saves only for workflow ids of 1-21 characters. restart() drops
// the in-memory workflow and activates a new one from the saved copy.
import { Container } from '@n8n/di';
import {
	BinaryDataService,
	DirectoryLoader,
	ExecutionLifecycleHooks,
	PollContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IPollFunctions,
	IRun,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { testAdditionalData } from './additional-data';
import { runFrom, scheduledPoll, triggerService, withPollBudget } from './engine';
import { nodeTypes } from './node-types';
import { initBinaryData } from './run-node';

export const TRIGGER_NAME = 'GridBank Trigger';
const PACKAGE = 'n8n-nodes-gridbank';
/** A cron that never fires while tests run (29 February, 03:00): the tests drive each poll. */
const TEST_POLL_TIMES = { item: [{ mode: 'custom', cronExpression: '0 0 3 29 2 *' }] };

export interface PollingTriggerOptions {
	/** Short type name: gridBankPartnerTrigger. */
	type: string;
	parameters: INodeParameters | Record<string, unknown>;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** The workflow's static data as the database holds it before the first activation. */
	staticData?: IDataObject;
	/** What getPollBudgetMs() answers (n8n's default: 5 minutes). */
	pollBudgetMs?: number;
}

export interface PollRun {
	/** The items the poll handed to n8n (__emit); null when it emitted nothing. */
	items: INodeExecutionData[] | null;
	/** The poll's error: from __emitError on a scheduled poll, thrown on activation, from run data in manual mode. */
	error?: Error & {
		description?: string | null;
		httpCode?: string | null;
		context?: IDataObject;
		failure?: unknown;
	};
	/** Whether this run left the workflow's static data changed in memory. */
	staticDataChanged: boolean;
}

let counter = 0;

/**
 * n8n's package loader adds the "Poll Times" parameter to every polling node when it loads it;
 * the Workflow keeps only parameters its node type declares. Same step, same code, once per type.
 */
function loadedLikeN8n(typeName: string): void {
	const type = nodeTypes.getByNameAndVersion(typeName) as INodeType;
	if (type.description.properties.some((property) => property.name === 'pollTimes')) return;
	const loader = DirectoryLoader.prototype as unknown as {
		applySpecialNodeParameters(nodeType: INodeType): void;
	};
	loader.applySpecialNodeParameters(type);
}

function additionalDataFor(
	options: PollingTriggerOptions,
	workflowId: string,
	executionId: string,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	return testAdditionalData({ credentials: options.credentials, workflowId, executionId, hooks });
}

export class PollingTrigger {
	/** n8n saves static data only for ids of at most 21 characters. */
	readonly workflowId = `poll${Date.now().toString(36)}${++counter}`;
	/** The static data as n8n last saved it to the database (JSON). */
	private saved: string;
	/** How often n8n saved the static data. */
	saves = 0;
	private live?: { workflow: Workflow; node: INode; pollFunctions: IPollFunctions };
	private outcome: { emitted?: INodeExecutionData[][]; error?: Error } = {};
	private readonly executionIds: string[] = [];

	constructor(private readonly options: PollingTriggerOptions) {
		this.saved = JSON.stringify(options.staticData ?? {});
	}

	/** The workflow's static data as saved in the database. */
	get staticData(): IDataObject {
		return JSON.parse(this.saved) as IDataObject;
	}

	/** The trigger node's own static data, as saved. */
	get nodeState(): IDataObject | undefined {
		return this.staticData[`node:${TRIGGER_NAME}`] as IDataObject | undefined;
	}

	private buildWorkflow(): { workflow: Workflow; node: INode; data: IWorkflowBase } {
		loadedLikeN8n(`${PACKAGE}.${this.options.type}`);
		const node: INode = {
			id: 'trigger',
			name: TRIGGER_NAME,
			type: `${PACKAGE}.${this.options.type}`,
			typeVersion: 1,
			position: [0, 0],
			parameters: { pollTimes: TEST_POLL_TIMES, ...this.options.parameters } as INodeParameters,
			credentials: Object.fromEntries(
				Object.keys(this.options.credentials ?? {}).map((type) => [
					type,
					{ id: `cred-${type}`, name: type },
				]),
			),
		};
		const data: IWorkflowBase = {
			id: this.workflowId,
			name: 'poll test',
			active: true,
			isArchived: false,
			nodes: [node],
			connections: {},
			settings: {},
			staticData: this.staticData,
			createdAt: new Date(),
			updatedAt: new Date(),
			activeVersionId: null,
		};
		const workflow = new Workflow({
			id: this.workflowId,
			name: data.name,
			nodes: [node],
			connections: {},
			nodeTypes,
			active: true,
			staticData: this.staticData,
			settings: {},
		});
		return { workflow, node, data };
	}

	/** WorkflowStaticDataService.saveStaticData: write the row when the data changed, then reset the flag. */
	private save(workflow: Workflow) {
		if (workflow.staticData.__dataChanged !== true) return;
		this.saved = JSON.stringify(workflow.staticData);
		workflow.staticData.__dataChanged = false;
		this.saves++;
	}

	private result(workflow: Workflow, error = this.outcome.error): PollRun {
		return {
			items: this.outcome.emitted?.[0] ?? null,
			error: error as PollRun['error'],
			staticDataChanged: workflow.staticData.__dataChanged === true,
		};
	}

	/**
	 * Publishing the workflow ('activate'), or n8n starting with it active ('init'): registers the
	 * poller and runs the first poll at once. A failing first poll fails the activation.
	 */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<PollRun> {
		if (this.live) throw new Error('already active: deactivate() or restart() first');
		await initBinaryData();
		const { workflow } = this.buildWorkflow();
		const executionId = `${this.workflowId}-${this.executionIds.length + 1}`;
		this.executionIds.push(executionId);
		const additionalData = additionalDataFor(this.options, this.workflowId, executionId);
		this.outcome = {};
		let pollFunctions: IPollFunctions | undefined;
		const budget = this.options.pollBudgetMs;
		try {
			await triggerService().addAllTriggers(
				this.workflowId,
				workflow,
				additionalData,
				'trigger',
				activation,
				() => {
					throw new Error('only polling triggers are used here');
				},
				(wf, node, data, mode, act) =>
					(pollFunctions = withPollBudget(
						budget,
						new PollContext(
							wf,
							node,
							data,
							mode,
							act,
							(emitted) => {
								// ActiveWorkflowManager: save the static data, then start the execution.
								this.save(wf);
								this.outcome.emitted = emitted;
							},
							(error) => {
								this.outcome.error = error;
							},
							undefined,
							undefined,
							undefined,
							budget === undefined ? undefined : () => budget,
						),
					)),
			);
		} catch (error) {
			await triggerService().remove(this.workflowId);
			return this.result(workflow, error as Error);
		}
		if (!pollFunctions) throw new Error('n8n registered no poller');
		this.live = { workflow, node: workflow.getNode(TRIGGER_NAME) as INode, pollFunctions };
		// The activator saves the workflow's static data once its triggers are registered.
		this.save(workflow);
		return this.result(workflow);
	}

	/** One scheduled poll, as the cron would run it. */
	async tick(): Promise<PollRun> {
		if (!this.live) throw new Error('not active: activate() first');
		const { workflow, node, pollFunctions } = this.live;
		this.outcome = {};
		await scheduledPoll(workflow, node, pollFunctions);
		return this.result(workflow);
	}

	async deactivate(): Promise<void> {
		if (!this.live) return;
		this.live = undefined;
		await triggerService().remove(this.workflowId);
	}

	/** n8n stops and starts again: the in-memory workflow is gone; activation reads the saved static data. */
	async restart(): Promise<PollRun> {
		await this.deactivate();
		return await this.activate('init');
	}

	/** "Fetch Test Event" in the editor: a manual execution of the trigger node. */
	async manual(): Promise<PollRun> {
		await initBinaryData();
		const { workflow, node, data } = this.buildWorkflow();
		const executionId = `${this.workflowId}-${this.executionIds.length + 1}`;
		this.executionIds.push(executionId);
		const hooks = new ExecutionLifecycleHooks('manual', executionId, data);
		let finished: (run: IRun) => void = () => {};
		const done = new Promise<IRun>((resolve) => (finished = resolve));
		hooks.addHandler('workflowExecuteAfter', (run) => finished(run));
		const additionalData = additionalDataFor(this.options, this.workflowId, executionId, hooks);
		await runFrom(new WorkflowExecute(additionalData, 'manual'), workflow, node).catch(
			() => undefined,
		);
		const run = await done;
		const task = run.data.resultData.runData[TRIGGER_NAME]?.[0];
		if (!task)
			throw new Error(
				`The trigger did not run: ${run.data.resultData.error?.message ?? 'no run data'}`,
			);
		const items = task.data?.main?.[0];
		return {
			items: items?.length ? items : null,
			error: task.error as unknown as PollRun['error'],
			staticDataChanged: workflow.staticData.__dataChanged === true,
		};
	}

	/** Deactivates and deletes what the runs stored in n8n's binary data folder. */
	async close(): Promise<void> {
		await this.deactivate();
		await Container.get(BinaryDataService).deleteMany(
			this.executionIds.map((executionId) => ({
				type: 'execution' as const,
				workflowId: this.workflowId,
				executionId,
			})),
		);
	}
}
