// The search's parameters (Query, and Filters: duration range, theme) read and checked before
// any request: one reader for the Search operation and the Enterprise Trigger. Their editor
// properties are in ../descriptions/search-properties.ts.
import type { IDataObject } from 'n8n-workflow';

import { type ItemParameters, readInteger } from '../../shared/read-parameters';
import { inputError } from '../../shared/transport/errors';
import { requireText } from '../../shared/validate';
import { MAX_QUERY_LENGTH } from './profile';

export { MAX_QUERY_LENGTH };

/** The search's query string (q, sort when given, duration_min/max, theme), checked before any request. */
export function readSearchQuery(item: ItemParameters): IDataObject {
	const { node, itemIndex } = item;
	const q = requireText(item, item.param('query'), 'Query', MAX_QUERY_LENGTH);
	const filters = item.param('filters', {}) as IDataObject;
	const duration = (name: string, label: string) =>
		readInteger(item, `filters.${name}`, label, { min: 0, optional: true });
	const durationMin = duration('durationMin', 'Min Duration');
	const durationMax = duration('durationMax', 'Max Duration');
	if (durationMin !== undefined && durationMax !== undefined && durationMin > durationMax)
		throw inputError(
			node,
			`Min Duration (${durationMin} s) is greater than Max Duration (${durationMax} s)`,
			'No video can match: lower Min Duration or raise Max Duration.',
			itemIndex,
		);
	const theme =
		typeof filters.theme === 'string' && filters.theme.trim()
			? requireText(item, filters.theme, 'Theme', 100)
			: undefined;
	const qs: IDataObject = { q };
	if (filters.sort) qs.sort = filters.sort;
	if (durationMin !== undefined) qs.duration_min = durationMin;
	if (durationMax !== undefined) qs.duration_max = durationMax;
	if (theme !== undefined) qs.theme = theme;
	return qs;
}
