// What both triggers' descriptions share: the polling node's shape and the Options collection
// (Include Existing / Max Existing, Max Retries, Output Format, Parallel Connections). Their
// poll entry point is ../trigger/poll-guard.ts's pollEntry.
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { maxRetriesOption, parallelConnectionsAlways } from './common-properties';
import { outputFormatOption } from './output-format';
import { triggerOnProperty } from './trigger-event';

/**
 * A trigger's description but its icon and subtitle (n8n's lint looks for them in the node's
 * file): its "Trigger On" event and one notice on top of its own properties, the polling node's
 * shape. `description` is what n8n's nodes panel shows on the entry it merges the trigger into
 * (the action node of the same name), so it describes the pair; `event` says what the trigger waits for.
 */
export function triggerDescription(o: {
	displayName: string;
	name: string;
	credential: string;
	description: string;
	event: INodePropertyOptions;
	notice: string;
	properties: INodeProperties[];
}): Omit<INodeTypeDescription, 'icon' | 'subtitle'> {
	return {
		displayName: o.displayName,
		name: o.name,
		group: ['trigger'],
		version: 1,
		description: o.description,
		defaults: { name: o.displayName },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: o.credential, required: true },
			// Asked for only when the trigger copies each video into a bucket.
			{
				name: 'gridBankS3StorageApi',
				required: true,
				displayOptions: { show: { copyToStorage: [true] } },
			},
		],
		properties: [
			triggerOnProperty([o.event], String(o.event.value)),
			{ displayName: o.notice, name: 'notice', type: 'notice', default: '' },
			...o.properties,
		],
	};
}

/** The Options collection; `noun` names what "existing" means (Licences, Videos). */
export function triggerOptions(o: {
	noun: string;
	includeDescription: string;
	maxDescription: string;
	maxExisting?: number;
}): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: `Include Existing ${o.noun}`,
				name: 'includeExisting',
				type: 'boolean',
				default: false,
				description: o.includeDescription,
			},
			{
				displayName: `Max Existing ${o.noun}`,
				name: 'maxExisting',
				type: 'number',
				typeOptions: { minValue: 1, ...(o.maxExisting ? { maxValue: o.maxExisting } : {}) },
				default: 10,
				displayOptions: { show: { includeExisting: [true] } },
				description: o.maxDescription,
			},
			maxRetriesOption,
			outputFormatOption,
			// Download File and Copy to Storage both use it: n8n's displayOptions cannot show a
			// property for either of two parameters, so a trigger shows it always.
			{
				...parallelConnectionsAlways,
				description: `With Download File or Copy to Storage: ${parallelConnectionsAlways.description}`,
			},
		],
	};
}
