// Search ID, which Get Download and Copy to Storage pass on so GridBank can attribute the download.
import type { INodeProperties } from 'n8n-workflow';

export const searchIdProperty: INodeProperties = {
	displayName: 'Search ID',
	name: 'searchId',
	type: 'string',
	default: '',
	description:
		'The search_id of the search that found this video (Search puts it on every item), so GridBank can attribute the download. Optional.',
};
