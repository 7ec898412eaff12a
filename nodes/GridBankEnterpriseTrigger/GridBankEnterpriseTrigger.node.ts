import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';

import {
	durationMaxOption,
	durationMinOption,
	queryProperty,
	themeOption,
} from '../GridBankEnterprise/descriptions/search-properties';
import { downloadProperties } from '../shared/descriptions/common-properties';
import { triggerCopyProperties } from '../shared/descriptions/copy-properties';
import { triggerDescription, triggerOptions } from '../shared/descriptions/trigger-description';
import { pollEntry } from '../shared/trigger/poll-guard';
import { poll } from './poll';
import { BURST_LIMIT } from './seen-state';

export class GridBankEnterpriseTrigger implements INodeType {
	description: INodeTypeDescription = {
		icon: { light: 'file:gridbank.svg', dark: 'file:gridbank.dark.svg' },
		subtitle: '={{ "New: " + $parameter["query"] }}',
		...triggerDescription({
			displayName: 'GridBank Enterprise Trigger',
			name: 'gridBankEnterpriseTrigger',
			credential: 'gridBankEnterpriseApi',
			// Shown on the "GridBank Enterprise" entry n8n's nodes panel merges this trigger into.
			description:
				'Search the GridBank catalogue and download originals, or start a workflow when new footage matching a search appears',
			event: {
				name: 'New Matching Video',
				value: 'newMatchingVideo',
				action: 'On new footage matching a search',
				description:
					'Starts the workflow when a video matching the search newly appears in the collection',
			},
			notice:
				'Each video that newly appears among the search\'s most recent results starts the workflow once, newest first. The first activation only notes what already matches, unless "Include Existing Videos" is set. Changing the query, duration range or theme starts afresh the same way.',
			properties: [
				queryProperty(),
				{
					displayName: 'Filters',
					name: 'filters',
					type: 'collection',
					placeholder: 'Add filter',
					default: {},
					options: [durationMaxOption, durationMinOption, themeOption],
				},
				...downloadProperties(),
				...triggerCopyProperties('video_id'),
				triggerOptions({
					noun: 'Videos',
					includeDescription:
						'Whether the first poll after activation also emits videos that already match (the newest ones, up to Max Existing Videos). Off: only videos that appear from then on.',
					maxDescription: `How many of the newest matching videos the first poll emits (at most ${BURST_LIMIT})`,
					maxExisting: BURST_LIMIT,
				}),
			],
		}),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollEntry(this, poll);
	}
}
