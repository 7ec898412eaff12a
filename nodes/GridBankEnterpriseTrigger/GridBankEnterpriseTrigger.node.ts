import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	durationMaxOption,
	durationMinOption,
	queryProperty,
	themeOption,
} from '../GridBankEnterprise/transport/search-query';
import {
	downloadProperties,
	maxRetriesOption,
	parallelConnectionsOption,
} from '../shared/descriptions/common-properties';
import { outputFormatOption } from '../shared/descriptions/video-shape';
import { alone } from '../shared/trigger/poll-guard';
import { poll } from './poll';
import { BURST_LIMIT } from './seen-state';

export class GridBankEnterpriseTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'GridBank Enterprise Trigger',
		name: 'gridBankEnterpriseTrigger',
		icon: { light: 'file:gridbank.svg', dark: 'file:gridbank.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ "New: " + $parameter["query"] }}',
		description: 'Starts the workflow when new footage matching a search appears in the collection',
		defaults: { name: 'GridBank Enterprise Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'gridBankEnterpriseApi', required: true }],
		properties: [
			{
				displayName:
					'Each video that newly appears among the search\'s most recent results starts the workflow once, newest first. The first activation only notes what already matches, unless "Include Existing Videos" is set. Changing the query, duration range or theme starts afresh the same way.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			queryProperty(),
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add filter',
				default: {},
				options: [durationMaxOption, durationMinOption, themeOption],
			},
			...downloadProperties({}),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Include Existing Videos',
						name: 'includeExisting',
						type: 'boolean',
						default: false,
						description:
							'Whether the first poll after activation also emits videos that already match (the newest ones, up to Max Existing Videos). Off: only videos that appear from then on.',
					},
					{
						displayName: 'Max Existing Videos',
						name: 'maxExisting',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: BURST_LIMIT },
						default: 10,
						displayOptions: { show: { includeExisting: [true] } },
						description: `How many of the newest matching videos the first poll emits (at most ${BURST_LIMIT})`,
					},
					maxRetriesOption,
					outputFormatOption,
					parallelConnectionsOption,
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// "Fetch Test Event" saves nothing and may run beside the live trigger.
		if (this.getMode() === 'manual') return await poll(this);
		return await alone(this, async () => await poll(this));
	}
}
