// The Resource parameter and a resource's Operation parameter, built the same way for every node.
import type { INodePropertyOptions, INodeProperties } from 'n8n-workflow';

export const operationPicker = (
	resource: string,
	options: INodePropertyOptions[],
	defaultOperation: string,
): INodeProperties => ({
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options,
	default: defaultOperation,
});

/** A node's Resource parameter. */
export const resourcePicker = (
	options: INodePropertyOptions[],
	defaultResource: string,
): INodeProperties => ({
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options,
	default: defaultResource,
});
