// The search's editor properties (Query, and Filters: duration range, theme): one definition for
// the Search operation and the Enterprise Trigger, which may import a node's descriptions/ as it
// may its transport/. Read back by ../transport/search-query.ts.
import type { INodeProperties } from 'n8n-workflow';

import { MAX_QUERY_LENGTH } from '../transport/search-query';

export const queryProperty = (displayOptions?: INodeProperties['displayOptions']) =>
	({
		displayName: 'Query',
		name: 'query',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. drone city skyline',
		...(displayOptions ? { displayOptions } : {}),
		description: `Words to search for in titles and keywords (1-${MAX_QUERY_LENGTH} characters); every word must match`,
	}) satisfies INodeProperties;

export const durationMaxOption: INodeProperties = {
	displayName: 'Max Duration (Seconds)',
	name: 'durationMax',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 60,
	description: 'Only videos at most this long',
};

export const durationMinOption: INodeProperties = {
	displayName: 'Min Duration (Seconds)',
	name: 'durationMin',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description: 'Only videos at least this long',
};

export const themeOption: INodeProperties = {
	displayName: 'Theme',
	name: 'theme',
	type: 'string',
	default: '',
	placeholder: 'e.g. nature',
	description: 'Only videos of this content category',
};
