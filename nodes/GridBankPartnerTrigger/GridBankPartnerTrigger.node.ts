import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';

import { downloadProperties } from '../shared/descriptions/common-properties';
import { triggerCopyProperties } from '../shared/descriptions/copy-properties';
import { triggerDescription, triggerOptions } from '../shared/descriptions/trigger-description';
import { pollEntry } from '../shared/trigger/poll-guard';
import { poll } from './poll';

export class GridBankPartnerTrigger implements INodeType {
	description: INodeTypeDescription = {
		icon: { light: 'file:gridbank.svg', dark: 'file:gridbank.dark.svg' },
		subtitle: '={{ $parameter["download"] ? "New licensed video + file" : "New licensed video" }}',
		...triggerDescription({
			displayName: 'GridBank Partner Trigger',
			name: 'gridBankPartnerTrigger',
			credential: 'gridBankPartnerApi',
			// Shown on the "GridBank Partner" entry n8n's nodes panel merges this trigger into.
			description:
				'List licensed videos, get their download URLs and master files, or start a workflow when a video is licensed',
			event: {
				name: 'Video Licensed',
				value: 'videoLicensed',
				action: 'On a newly licensed video',
				description:
					'Starts the workflow when your GridBank account (or its team owner) licenses a video',
			},
			notice:
				'Each newly licensed video starts the workflow once, newest purchase first. The first activation only notes what is already licensed, unless "Include Existing Licences" is set.',
			properties: [
				...downloadProperties(),
				...triggerCopyProperties('video_key'),
				triggerOptions({
					noun: 'Licences',
					includeDescription:
						'Whether the first poll after activation also emits videos licensed before it (the newest ones, up to Max Existing Licences). Off: only videos licensed from then on.',
					maxDescription: 'How many of the newest existing licences the first poll emits',
				}),
			],
		}),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollEntry(this, poll);
	}
}
