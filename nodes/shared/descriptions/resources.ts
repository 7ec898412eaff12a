// A node's Resource and Operation pickers, its subtitle and its operations' properties, built
// from its resource modules: the node lists resources and names no operation.
import type { INodeProperties } from 'n8n-workflow';

import type { Resource } from '../operation';
import { updateDisplayOptions } from './display-options';
import { operationPicker, resourcePicker } from './operation-picker';

/** The Resource picker, then each resource's Operation picker and its operations' properties, each shown for its own resource and operation. */
export function resourceProperties(resources: Resource[]): INodeProperties[] {
	return [
		resourcePicker(
			resources.map(({ name, value }) => ({ name, value })),
			resources[0].value,
		),
		...resources.flatMap((resource) => [
			operationPicker(
				resource.value,
				resource.operations.map((operation) => operation.option),
				resource.defaultOperation,
			),
			...resource.operations.flatMap((operation) =>
				updateDisplayOptions(
					{ show: { resource: [resource.value], operation: [operation.option.value] } },
					operation.description,
				),
			),
		]),
	];
}

/** "<resource>.<operation>" → the name shown under the node on the canvas. */
export function operationSubtitle(resources: Resource[]): string {
	const names = resources.flatMap((resource) =>
		resource.operations.map(
			(operation) =>
				`${JSON.stringify(`${resource.value}.${operation.option.value}`)}: ${JSON.stringify(operation.subtitle ?? operation.option.name)}`,
		),
	);
	return `={{ {${names.join(', ')}}[$parameter["resource"] + "." + $parameter["operation"]] }}`;
}
