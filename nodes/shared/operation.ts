// One operation = one file exporting its UI properties and an execute for one input item.
// The node's router runs it for every item, with continueOnFail and pairedItem handled once.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeExecutionHint } from 'n8n-workflow';

import type { GridBankClient } from './transport/client';

export interface OperationResult {
	items: INodeExecutionData[];
	hints?: NodeExecutionHint[];
}

export interface Operation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number, client: GridBankClient): Promise<OperationResult>;
}

export const jsonItems = (objects: IDataObject[]): OperationResult => ({ items: objects.map((json) => ({ json })) });
