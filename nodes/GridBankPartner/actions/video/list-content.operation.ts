// List Licensed Content: GET /partner/v1/content, newest purchase first, by cursor.
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { listLicences } from '../../transport/list';
import { PARTNER } from '../../transport/profile';
import {
	limitProperty,
	optionsCollection,
	returnAllProperty,
} from '../../../shared/descriptions/common-properties';
import { inputError } from '../../../shared/transport/errors';
import type { ActionItem, OperationOption, OperationResult } from '../../../shared/operation';
import { jsonItems } from '../../../shared/operation';
import { readBoolean, readInteger, readOutputFormat } from '../../../shared/read-parameters';
import { parseInZone } from '../../../shared/zoned-time';
import { outputFormatOption } from '../../../shared/descriptions/output-format';
import { shapeVideos } from '../../../shared/video-shape';

export const option: OperationOption = {
	name: 'List Licensed Content',
	value: 'listContent',
	action: 'List licensed videos',
	description:
		'List the videos this account (and its team owner) has licensed, newest purchase first, with their video keys, titles and preview links',
};

export const description: INodeProperties[] = [
	returnAllProperty(
		'Costs one request per 100 videos (1,000 licences: 10 requests). GridBank allows 300 requests a minute per account, shared by all its keys and workflows.',
	),
	{ ...limitProperty(), hint: 'Reads only what the limit needs: one request per 100 videos' },
	optionsCollection([
		outputFormatOption,
		{
			displayName: 'Purchased After',
			name: 'purchasedAfter',
			type: 'dateTime',
			default: '',
			description:
				'Only videos licensed after this moment. Paging stops at the first older purchase, so "since the last run" costs one request when nothing is new.',
		},
	]),
];

/** Epoch ms from a date-time string, a Date, a Luxon DateTime or Unix seconds/ms. */
function toEpochMs(item: ActionItem, value: unknown): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'number') return value < 1e11 ? value * 1000 : value;
	if (value instanceof Date) return value.getTime();
	const text =
		typeof value === 'object' && 'toISO' in value
			? String((value as { toISO(): string }).toISO())
			: String(value);
	// Without an offset (as n8n's date picker stores it): the workflow's time zone, not the server's.
	const ms = parseInZone(text, item.ctx.getTimezone());
	if (ms === undefined)
		throw inputError(
			item.node,
			`Purchased After "${text}" is not a date`,
			'Use an ISO date such as 2026-01-31T12:00:00Z, or an expression that gives a date.',
			item.itemIndex,
		);
	return ms;
}

export async function execute(item: ActionItem): Promise<OperationResult> {
	const returnAll = readBoolean(item, 'returnAll', 'Return All');
	const limit = returnAll
		? undefined
		: readInteger(item, 'limit', 'Limit', { min: 1, fallback: 50 });
	const after = toEpochMs(item, item.param('options.purchasedAfter', ''));
	const format = readOutputFormat(item);

	const { items } = await listLicences(item.client, item.scope, {
		limit,
		stopAt:
			after === undefined
				? undefined
				: (video: IDataObject) =>
						typeof video.purchased_at === 'number' && video.purchased_at * 1000 <= after,
	});
	return jsonItems(shapeVideos(format, PARTNER.videoFields, items));
}
