// A video key or id parameter as a resource locator ("From list" or "By ID"), and reading the
// chosen value back; the list behind "From list" is methods/video-picker.ts.
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireVideoId } from '../validate';

/**
 * requireVideoId's rules as the editor's "By ID" check (n8n anchors it with ^…$): 1-50
 * characters once trimmed, no control characters or backslash, no empty, "." or ".." path
 * segment, no encoded slash or backslash. Never stricter than the node's own check, which
 * has the last word (an expression is not checked in the editor at all).
 */
export const VIDEO_KEY_REGEX = String.raw`\s*(?!/)(?!.*/\s*$)(?!.*//)(?!(?:.*/)?\.\.?(?:/|\s*$))(?!.*%(?:2[fF]|5[cC]))[^\s\\\x00-\x1f\x7f](?:[^\\\x00-\x1f\x7f]{0,48}[^\s\\\x00-\x1f\x7f])?\s*`;
/** The same for an API that also limits the alphabet to letters, digits, "/", "_" and "-". */
export const VIDEO_ID_REGEX = String.raw`\s*(?!/)(?!.*/\s*$)(?!.*//)[a-zA-Z0-9/_-]{1,50}\s*`;

export interface VideoLocatorOptions {
	name: string;
	displayName: string;
	/** Name of the node's listSearch method. */
	searchListMethod: string;
	/** The list needs typed words before it shows anything (a search API has no "list all"). */
	searchFilterRequired: boolean;
	/** "By ID" check, the same rules as the node's own check (n8n wraps it in ^…$). */
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

/**
 * Reads a video locator for one item and checks it like any video id. A workflow saved before
 * the picker existed holds a plain string: n8n hands that back unchanged, so it still runs.
 */
export function readVideoParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	pattern?: RegExp,
): string {
	const value = ctx.getNodeParameter(name, itemIndex, undefined, { extractValue: true });
	return requireVideoId(ctx.getNode(), value, label, itemIndex, pattern);
}
