// One operation = one file exporting its picker entry, its UI properties and an execute for one
// input item; one resource = one file exporting its operations. The node builds its pickers,
// router and subtitle from its resources, so a new operation touches its file and its resource.
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

/** An operation's entry in its resource's Operation picker; `value` is what saved workflows hold. */
export interface OperationOption {
	name: string;
	value: string;
	/** What n8n names the AI tool and the node on the canvas after. */
	action: string;
	description: string;
}

export interface Operation {
	option: OperationOption;
	/** The node's subtitle while this operation is chosen (default: the option's name). */
	subtitle?: string;
	description: INodeProperties[];
	execute(item: ActionItem): Promise<OperationResult>;
}

export interface Resource {
	/** The Resource picker's entry; `value` is what saved workflows hold. */
	name: string;
	value: string;
	defaultOperation: string;
	/** In picker order. */
	operations: Operation[];
}

export const jsonItems = (objects: IDataObject[]): OperationResult => ({
	items: objects.map((json) => ({ json })),
});
