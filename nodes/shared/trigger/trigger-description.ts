// What both triggers' descriptions share: the polling node's shape, the Options collection
// (Include Existing / Max Existing, Max Retries, Output Format, Parallel Connections) and the
// poll entry point (the live trigger never overlaps itself; Fetch Test Event may run beside it).
import type {
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { maxRetriesOption, parallelConnectionsOption } from '../descriptions/common-properties';
import { triggerOnProperty } from '../descriptions/trigger-event';
import { outputFormatOption } from '../descriptions/video-shape';
import { alone } from './poll-guard';

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
			parallelConnectionsOption,
		],
	};
}

/** A trigger's poll(): "Fetch Test Event" saves nothing and may run beside the live trigger. */
export async function pollEntry<T>(ctx: IPollFunctions, poll: (ctx: IPollFunctions) => Promise<T>) {
	if (ctx.getMode() === 'manual') return await poll(ctx);
	return await alone(ctx, async () => await poll(ctx));
}
