// What every step of one input item shares, bound once by the item loop (run-items.ts) or by a
// poll: the node context, the client, the item's index and its Max Retries. Operations, pagers
// and the download read them from here instead of passing each one along.
import type {
	IExecuteFunctions,
	IGetNodeParameterOptions,
	INode,
	IPollFunctions,
} from 'n8n-workflow';

import { type ItemParameters, readMaxRetries } from './read-parameters';
import type { GridBankClient } from './transport/client';
import { newWaitTally, type WaitTally } from './transport/wait-budget';

/** The part of an item the client and the pagers take with each request. */
export interface ItemScope {
	itemIndex: number;
	maxRetries: number;
	/** The item's time in the pacer so far: bounded in total, whatever number of requests it makes. */
	waits?: WaitTally;
}

export interface ItemContext<
	C extends IExecuteFunctions | IPollFunctions = IExecuteFunctions | IPollFunctions,
> extends ItemScope,
		ItemParameters {
	readonly ctx: C;
	readonly node: INode;
	readonly client: GridBankClient;
	/** This item's parameter (a poll's parameters belong to no item). */
	param(name: string, fallback?: unknown, options?: IGetNodeParameterOptions): unknown;
	/** itemIndex, maxRetries and the item's wait tally, to spread into a request's options. */
	readonly scope: ItemScope;
}

/** Binds one item; reads (and checks) its Max Retries, so a bad value fails before any request. */
export function itemContext<C extends IExecuteFunctions | IPollFunctions>(
	ctx: C,
	client: GridBankClient,
	itemIndex: number,
): ItemContext<C> {
	const param =
		'getInputData' in ctx
			? (name: string, fallback?: unknown, options?: IGetNodeParameterOptions) =>
					(ctx as IExecuteFunctions).getNodeParameter(name, itemIndex, fallback, options)
			: (name: string, fallback?: unknown, options?: IGetNodeParameterOptions) =>
					(ctx as IPollFunctions).getNodeParameter(name, fallback, options);
	const node = ctx.getNode();
	const maxRetries = readMaxRetries({ node, itemIndex, param });
	const scope = { itemIndex, maxRetries, waits: newWaitTally() };
	return { ctx, node, client, itemIndex, maxRetries, param, scope };
}
