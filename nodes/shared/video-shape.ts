// One video shape for both APIs: the Video object GridBank's official client libraries return
// (docs/gridbank-api.md#sdk-field-names), so Partner and Enterprise
// items can meet in one workflow without a Set node. Which response field feeds which library
// field is data on each API profile (`videoFields`); this module only applies it. The editor's
// Output Format option is descriptions/output-format.ts.
import type { IDataObject } from 'n8n-workflow';

import type { OutputFormat } from './read-parameters';
import type { VideoFieldMap } from './transport/api-profile';
import { VIDEO_FIELDS } from './transport/api-profile';
import { isObject } from './transport/values';

/** The library Creator fields; the JavaScript library names them in camelCase, as it does purchasedAt. */
const CREATOR_FIELDS: Array<[field: string, response: string]> = [
	['id', 'id'],
	['username', 'username'],
	['name', 'name'],
	['bio', 'bio'],
	['profileImage', 'profile_image'],
];

function creatorOf(value: unknown): IDataObject | null {
	if (!isObject(value)) return null;
	return Object.fromEntries(
		CREATOR_FIELDS.map(([field, response]) => [field, value[response] ?? null]),
	);
}

/**
 * One response item in the library shape. Every library field is present (null where the API
 * has no such field or sent none); fields the node itself added (`extras`, such as search_id or
 * the downloaded file's name) keep their place after the video's own fields.
 */
export function toVideo(
	fields: VideoFieldMap,
	item: IDataObject,
	extras: readonly string[] = [],
): IDataObject {
	const video: IDataObject = {};
	for (const field of VIDEO_FIELDS) {
		const source = fields[field];
		const value = source === undefined ? null : (item[source] ?? null);
		if (field === 'creator') video.creator = creatorOf(value);
		else if (field === 'location') video.location = isObject(value) ? { ...value } : null;
		else if (field === 'keywords') video.keywords = Array.isArray(value) ? [...value] : null;
		else video[field] = value;
	}
	for (const name of extras) if (name in item) video[name] = item[name];
	return video;
}

/** Items in the chosen format: unchanged for `api`, the library shape for `video`. */
export function shapeVideos(
	format: OutputFormat,
	fields: VideoFieldMap,
	items: IDataObject[],
	extras: readonly string[] = [],
): IDataObject[] {
	return format === 'api' ? items : items.map((item) => toVideo(fields, item, extras));
}
