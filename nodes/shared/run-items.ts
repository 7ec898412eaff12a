// The execute loop both nodes share: route each input item to its operation, pair every
// output item with its input, and keep going past failed items when continueOnFail is on.
import type { IExecuteFunctions, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiProfile } from './transport/api-profile';
import { GridBankClient } from './transport/client';
import { atItem, rethrowIfCancelled } from './transport/errors';
import { itemContext } from './item-context';
import type { Operation, Resource } from './operation';

export async function runItems(
	ctx: IExecuteFunctions,
	profile: ApiProfile,
	resources: Resource[],
): Promise<INodeExecutionData[][]> {
	const operations = new Map<string, Operation>(
		resources.flatMap((resource) =>
			resource.operations.map((operation) => [
				`${resource.value}.${operation.option.value}`,
				operation,
			]),
		),
	);
	const inputs = ctx.getInputData();
	const client = new GridBankClient(ctx, profile);
	const output: INodeExecutionData[] = [];
	const hints: NodeExecutionHint[] = [];

	for (let itemIndex = 0; itemIndex < inputs.length; itemIndex++) {
		try {
			const resource =
				ctx.getNode().parameters.resource === undefined
					? ''
					: `${ctx.getNodeParameter('resource', itemIndex) as string}.`;
			const key = `${resource}${ctx.getNodeParameter('operation', itemIndex) as string}`;
			const operation = operations.get(key);
			if (!operation)
				throw new NodeOperationError(ctx.getNode(), `Unknown operation "${key}"`, { itemIndex });
			const result = await operation.execute(itemContext(ctx, client, itemIndex));
			for (const item of result.items) output.push({ ...item, pairedItem: { item: itemIndex } });
			for (const hint of result.hints ?? [])
				if (!hints.some((h) => h.message === hint.message)) hints.push(hint);
		} catch (error) {
			rethrowIfCancelled(client.signal, error);
			if (!ctx.continueOnFail()) throw atItem(error, itemIndex);
			const { message, description, httpCode } = error as {
				message: string;
				description?: string;
				httpCode?: string;
			};
			// n8n's "Continue (using error output)" moves only items whose json is `error` alone or
			// with `message` (n8n 1.x; 2.x also allows `details`), then adds the input item's fields:
			// there the description goes as `message`, the one shape both move.
			if (ctx.getNode().onError === 'continueErrorOutput') {
				const json = { error: message, ...(description ? { message: description } : {}) };
				output.push({ json, pairedItem: { item: itemIndex } });
				continue;
			}
			const json = {
				error: message,
				...(description ? { description } : {}),
				...(httpCode ? { httpCode } : {}),
			};
			output.push({ json, pairedItem: { item: itemIndex } });
		}
	}
	if (hints.length) ctx.addExecutionHints(...hints);
	return [output];
}
