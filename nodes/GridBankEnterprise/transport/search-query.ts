// The search's parameters (Query, and Filters: duration range, theme) and their checks before
// any request: one definition for the Search operation and the Enterprise Trigger.
import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

import { inputError } from '../../shared/transport/errors';
import { optionalInteger, requireText } from '../../shared/validate';

/** The API's bound on q. */
export const MAX_QUERY_LENGTH = 200;

export const queryProperty = (displayOptions?: INodeProperties['displayOptions']) =>
	({
		displayName: 'Query',
		name: 'query',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. drone city skyline',
		...(displayOptions ? { displayOptions } : {}),
		description:
			'Words to search for in titles and keywords (1-200 characters); every word must match',
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

/** The search's query string (q, sort when given, duration_min/max, theme), checked before any request. */
export function readSearchQuery(
	node: INode,
	param: (name: string, fallback?: unknown) => unknown,
	itemIndex: number,
): IDataObject {
	const q = requireText(node, param('query'), 'Query', itemIndex, MAX_QUERY_LENGTH);
	const filters = param('filters', {}) as IDataObject;
	const durationMin = optionalInteger(node, filters.durationMin, 'Min Duration', itemIndex, 0);
	const durationMax = optionalInteger(node, filters.durationMax, 'Max Duration', itemIndex, 0);
	if (durationMin !== undefined && durationMax !== undefined && durationMin > durationMax)
		throw inputError(
			node,
			`Min Duration (${durationMin} s) is greater than Max Duration (${durationMax} s)`,
			'No video can match: lower Min Duration or raise Max Duration.',
			itemIndex,
		);
	const theme =
		typeof filters.theme === 'string' && filters.theme.trim()
			? requireText(node, filters.theme, 'Theme', itemIndex, 100)
			: undefined;
	const qs: IDataObject = { q };
	if (filters.sort) qs.sort = filters.sort;
	if (durationMin !== undefined) qs.duration_min = durationMin;
	if (durationMax !== undefined) qs.duration_max = durationMax;
	if (theme !== undefined) qs.theme = theme;
	return qs;
}
