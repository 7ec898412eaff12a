// A resource's Operation parameter, built the same way for every resource of every node.
import type { INodePropertyOptions, INodeProperties } from 'n8n-workflow';

export const operationPicker = (resource: string, options: INodePropertyOptions[], defaultOperation: string): INodeProperties => ({
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options,
	default: defaultOperation,
});
