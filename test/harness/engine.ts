// Differences between the n8n-core versions the suite runs on (npm test: 2.x; npm run
// test:matrix: 1.x), kept to small branches here instead of copies of the harness.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { Container } from '@n8n/di';
import * as core from 'n8n-core';
import type { ActiveWorkflowTriggers, TriggersAndPollers, WorkflowExecute } from 'n8n-core';
import { NodeHelpers } from 'n8n-workflow';
import type {
	IBinaryData,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodeTypeDescription,
	IPollFunctions,
	Workflow,
} from 'n8n-workflow';

function packageVersion(name: string): string {
	// The package's main file is dist/index.js (or dist/cjs/index.js): walk up to its package.json.
	for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
		try {
			const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
				name?: string;
				version: string;
			};
			if (pkg.name === name) return pkg.version;
		} catch {
			/* no package.json at this level */
		}
	}
	throw new Error(`no package.json found for ${name}`);
}

/** The n8n-core the tests run against, e.g. "2.41.1" or "1.122.48". */
export const coreVersion = packageVersion('n8n-core');
export const coreMajor = Number(coreVersion.split('.')[0]);

type Execution = ReturnType<WorkflowExecute['run']>;

/** WorkflowExecute.run: an options object from n8n-core 2.x on, positional arguments before. */
export function runFrom(engine: WorkflowExecute, workflow: Workflow, startNode: INode): Execution {
	if (coreMajor >= 2) return engine.run({ workflow, startNode });
	const legacyRun = engine.run as unknown as (workflow: Workflow, startNode: INode) => Execution;
	return legacyRun.call(engine, workflow, startNode);
}

/** n8n-core's trigger activation: ActiveWorkflowTriggers.addAllTriggers (2.x), ActiveWorkflows.add (1.x), same arguments. */
export function triggerService(): Pick<ActiveWorkflowTriggers, 'addAllTriggers' | 'remove'> {
	if (coreMajor >= 2) return Container.get(core.ActiveWorkflowTriggers);
	type Legacy = {
		add: ActiveWorkflowTriggers['addAllTriggers'];
		remove: ActiveWorkflowTriggers['remove'];
	};
	const legacy = Container.get(
		(core as unknown as { ActiveWorkflows: new () => Legacy }).ActiveWorkflows,
	);
	return {
		addAllTriggers: (...args) => legacy.add(...args),
		remove: async (id) => await legacy.remove(id),
	};
}

/**
 * One scheduled poll as n8n's cron runs it: 2.x's PollTriggerExecutor; 1.x's ActiveWorkflows
 * inlines the same steps (run the poll, emit what it returned, or emit its error).
 */
export async function scheduledPoll(
	workflow: Workflow,
	node: INode,
	pollFunctions: IPollFunctions,
): Promise<void> {
	if (coreMajor >= 2)
		return await Container.get(core.PollTriggerExecutor).create(
			workflow,
			node,
			pollFunctions,
			() => true,
		)(false);
	const poller = triggersAndPollers() as unknown as {
		runPoll(w: Workflow, n: INode, p: IPollFunctions): Promise<INodeExecutionData[][] | null>;
	};
	try {
		const items = await poller.runPoll(workflow, node, pollFunctions);
		if (items !== null) pollFunctions.__emit(items);
	} catch (error) {
		pollFunctions.__emitError(error as Error);
	}
}

/** n8n-core's TriggersAndPollers (1.x does not export it from its index; its file is the same singleton). */
export function triggersAndPollers(): TriggersAndPollers {
	if (coreMajor >= 2) return Container.get(core.TriggersAndPollers);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const legacy = require('n8n-core/dist/execution-engine/triggers-and-pollers') as {
		TriggersAndPollers: typeof TriggersAndPollers;
	};
	return Container.get(legacy.TriggersAndPollers);
}

/**
 * The size n8n recorded for a stored binary: `bytes` on n8n 2.x; n8n 1.x has only a rounded
 * `fileSize` string ("3.15 MB") on the item, and the exact size in its store's metadata.
 */
export async function storedBytes(binary: IBinaryData | undefined): Promise<number | undefined> {
	if (!binary) return undefined;
	if (coreMajor >= 2) return binary.bytes;
	if (!binary.id)
		throw new Error('storedBytes on n8n 1.x needs a binary stored by id (filesystem mode)');
	return (await Container.get(core.BinaryDataService).getMetadata(binary.id)).fileSize;
}

/**
 * A test's poll budget on the PollContext. n8n 2.x takes it as a constructor argument; n8n 1.x
 * has no budget (the node then uses its own default), so a test that needs a small one sets it
 * where the node reads it, to exercise the same spreading logic on the old engine's context.
 */
export function withPollBudget<T extends IPollFunctions>(budgetMs: number | undefined, ctx: T): T {
	if (budgetMs !== undefined && typeof ctx.getPollBudgetMs !== 'function')
		Object.assign(ctx, { getPollBudgetMs: () => budgetMs });
	return ctx;
}

/**
 * BinaryDataService.init: n8n-core reads its own BinaryDataConfig since 1.9x; older ones (n8n 1.85)
 * take the config the n8n server builds from N8N_DEFAULT_BINARY_DATA_MODE and N8N_BINARY_DATA_STORAGE_PATH.
 */
export async function initBinaryDataService(): Promise<void> {
	const service = Container.get(core.BinaryDataService);
	if (service.init.length === 0) return await service.init();
	const legacyInit = service.init as unknown as (config: {
		mode: string;
		availableModes: string[];
		localStoragePath: string;
	}) => Promise<void>;
	await legacyInit.call(service, {
		mode: process.env.N8N_DEFAULT_BINARY_DATA_MODE ?? 'default',
		availableModes: ['filesystem'],
		localStoragePath: process.env.N8N_BINARY_DATA_STORAGE_PATH ?? '',
	});
}

/** n8n 1.x's filesystem store writes straight into the final file and leaves it when the stream fails. */
export const storeKeepsPartialFiles = coreMajor < 2;

/**
 * Whether the NodeApiError RoutingNode throws keeps the HTTP response (`cause.response`), which
 * n8n's credential tester needs to apply a credential's status rules. Seen kept on n8n-core 1.84.0
 * and 2.x, dropped on 1.122.48 (the 1.1xx versions between are not run).
 */
export const routingErrorKeepsResponse = !(
	coreMajor === 1 && Number(coreVersion.split('.')[1]) >= 100
);

/**
 * Whether n8n's HTTP client answers a data: URL itself, as the Partner credential test's key
 * check needs to show its message: n8n-core 1.122.48 and 2.x do; n8n-core 1.84.0's request
 * fails with ERR_BAD_REQUEST, which its tester shows instead (nothing is sent either way).
 */
export const answersDataUrls = !(coreMajor === 1 && Number(coreVersion.split('.')[1]) < 100);

/**
 * NodeHelpers.getNodeParametersIssues: n8n-workflow takes the node type's description as its third
 * argument since 1.9x; n8n 1.85's (n8n-workflow 1.83) takes pin data names there instead.
 */
export function nodeParameterIssues(
	properties: INodeProperties[],
	node: INode,
	description: INodeTypeDescription,
): ReturnType<typeof NodeHelpers.getNodeParametersIssues> {
	const check = NodeHelpers.getNodeParametersIssues as unknown as (
		...args: unknown[]
	) => ReturnType<typeof NodeHelpers.getNodeParametersIssues>;
	// n8n-workflow 1.x runs each parameter regex in a vm with a 250 ms limit (safe-regex), which a
	// loaded machine exceeds on any regex by being slow to schedule it: that is the machine, not
	// the regex, so the check is asked again (a regex that is truly slow times out every time).
	for (let attempt = 1; ; attempt++) {
		try {
			return check.length >= 4 ? check(properties, node, description) : check(properties, node);
		} catch (error) {
			const timedOut = (error as Error).message === 'Regular expression execution timed out';
			if (!timedOut || attempt === 3) throw error;
		}
	}
}

type LoggerLike = { info: (message: string, meta?: object) => void };
/**
 * The Logger instance the engine's contexts write through: n8n 1.85's n8n-core exports its own;
 * later ones use @n8n/backend-common's, resolved from n8n-core's folder so a matrix leg gets the
 * copy its n8n-core uses (the repo's 2.x copy is another class there). Undefined if neither.
 */
export function engineLogger(): LoggerLike | undefined {
	type LoggerClass = new (...args: never[]) => LoggerLike;
	let found = (core as unknown as { Logger?: LoggerClass }).Logger;
	if (!found) {
		const coreDir = dirname(require.resolve('n8n-core'));
		try {
			const path = require.resolve('@n8n/backend-common', { paths: [coreDir] });
			found = (require(path) as { Logger?: LoggerClass }).Logger;
		} catch {
			/* no @n8n/backend-common beside this n8n-core */
		}
	}
	return found ? Container.get(found as never) : undefined;
}
