import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	downloadProperties,
	maxRetriesOption,
	parallelConnectionsOption,
} from '../shared/descriptions/common-properties';
import { triggerOnProperty } from '../shared/descriptions/trigger-event';
import { outputFormatOption } from '../shared/descriptions/video-shape';
import { poll } from './poll';
import { alone } from './poll-guard';

export class GridBankPartnerTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'GridBank Partner Trigger',
		name: 'gridBankPartnerTrigger',
		icon: { light: 'file:gridbank.svg', dark: 'file:gridbank.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["download"] ? "New licensed video + file" : "New licensed video" }}',
		// n8n's nodes panel shows this on the "GridBank Partner" entry it merges this trigger into
		// (shared/descriptions/trigger-event.ts): it describes the pair, the action node first.
		description:
			'List licensed videos, get their download URLs and master files, or start a workflow when a video is licensed',
		defaults: { name: 'GridBank Partner Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'gridBankPartnerApi', required: true }],
		properties: [
			triggerOnProperty(
				[
					{
						name: 'Video Licensed',
						value: 'videoLicensed',
						action: 'On a newly licensed video',
						description:
							'Starts the workflow when your GridBank account (or its team owner) licenses a video',
					},
				],
				'videoLicensed',
			),
			{
				displayName:
					'Each newly licensed video starts the workflow once, newest purchase first. The first activation only notes what is already licensed, unless "Include Existing Licences" is set.',
				name: 'notice',
				type: 'notice',
				default: '',
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
						displayName: 'Include Existing Licences',
						name: 'includeExisting',
						type: 'boolean',
						default: false,
						description:
							'Whether the first poll after activation also emits videos licensed before it (the newest ones, up to Max Existing Licences). Off: only videos licensed from then on.',
					},
					{
						displayName: 'Max Existing Licences',
						name: 'maxExisting',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 10,
						displayOptions: { show: { includeExisting: [true] } },
						description: 'How many of the newest existing licences the first poll emits',
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
