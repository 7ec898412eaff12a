// One operation = one file exporting its UI properties and an execute for one input item.
// The node's router runs it for every item, with continueOnFail and pairedItem handled once.
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeExecutionHint,
} from 'n8n-workflow';

import type { ItemContext } from './item-context';

export interface OperationResult {
	items: INodeExecutionData[];
	hints?: NodeExecutionHint[];
}

/** An action node's item: its context is always an IExecuteFunctions. */
export type ActionItem = ItemContext<IExecuteFunctions>;

export interface Operation {
	description: INodeProperties[];
	execute(item: ActionItem): Promise<OperationResult>;
}

export const jsonItems = (objects: IDataObject[]): OperationResult => ({
	items: objects.map((json) => ({ json })),
});
