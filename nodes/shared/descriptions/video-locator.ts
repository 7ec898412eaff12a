// A video key or id parameter as a resource locator ("From list" or "By ID"); the list behind
// "From list" is methods/video-picker.ts, reading the value back read-parameters.ts, and the
// "By ID" regexes validate.ts (the node's own check).
import type { INodeProperties } from 'n8n-workflow';

export interface VideoLocatorOptions {
	name: string;
	displayName: string;
	/** Name of the node's listSearch method. */
	searchListMethod: string;
	/** The list needs typed words before it shows anything (a search API has no "list all"). */
	searchFilterRequired: boolean;
	/** "By ID" check, the same rules as the node's own check (n8n wraps it in ^…$): validate.ts. */
	idRegex: string;
	idError: string;
	placeholder: string;
	description: string;
	hint?: string;
}

/** A video key or id parameter as a resource locator: pick from a list, or enter the key. */
export const videoLocator = (options: VideoLocatorOptions): INodeProperties => ({
	displayName: options.displayName,
	name: options.name,
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: options.description,
	...(options.hint ? { hint: options.hint } : {}),
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: options.searchFilterRequired ? 'Type words to search…' : 'Select a video…',
			typeOptions: {
				searchListMethod: options.searchListMethod,
				searchable: true,
				searchFilterRequired: options.searchFilterRequired,
			},
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: options.placeholder,
			validation: [
				{ type: 'regex', properties: { regex: options.idRegex, errorMessage: options.idError } },
			],
		},
	],
});
