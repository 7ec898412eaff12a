// GridBank's 2xx bodies, checked before use: a body of another shape fails the item with a
// message naming what was wrong, instead of a TypeError, an item per character of a string,
// or videos dropped by the de-duplication because they lack their id.
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isObject } from './values';

const kind = (value: unknown) =>
	value === null
		? 'null'
		: Array.isArray(value)
			? 'a list'
			: typeof value === 'string'
				? 'text'
				: typeof value === 'object'
					? 'an object'
					: `a ${typeof value}`;

/** A 2xx body this node cannot use. */
export function unreadableBody(
	node: INode,
	what: string,
	problem: string,
	itemIndex: number,
): NodeApiError {
	const message = `GridBank sent ${what} this node cannot read: ${problem}`;
	return new NodeApiError(
		node,
		{ message },
		{
			message,
			description:
				'The answer did not have the shape GridBank documents, so nothing was taken from it (no video was skipped silently). Try again; if it persists, GridBank may have changed its API: contact GridBank.',
			httpCode: '200',
			itemIndex,
			failure: { cause: 'temporarily-unavailable' },
		},
	);
}

/** The body as an object (never a list, text or null). */
export function bodyObject(
	node: INode,
	body: unknown,
	what: string,
	itemIndex: number,
): IDataObject {
	if (!isObject(body))
		throw unreadableBody(node, what, `the answer is ${kind(body)}, not an object`, itemIndex);
	return body;
}

export interface VideoListShape {
	/** The field holding the list ("videos"). */
	field: string;
	/** Each video's id field (video_key, id): a non-empty string. */
	idField: string;
	/** Missing list = empty page (the Partner list); else the field is required. */
	optional: boolean;
	/** "a list page", "a search result": for the message. */
	what: string;
}

/** The page's videos: a list of objects, each with its id. */
export function videoList(
	node: INode,
	body: unknown,
	shape: VideoListShape,
	itemIndex: number,
): IDataObject[] {
	const page = bodyObject(node, body, shape.what, itemIndex);
	const list = page[shape.field];
	if (list === undefined && shape.optional) return [];
	if (!Array.isArray(list))
		throw unreadableBody(
			node,
			shape.what,
			`"${shape.field}" is ${list === undefined ? 'missing' : kind(list)}, not a list of videos`,
			itemIndex,
		);
	list.forEach((video, index) => {
		if (!isObject(video))
			throw unreadableBody(
				node,
				shape.what,
				`video ${index + 1} of "${shape.field}" is ${kind(video)}, not an object`,
				itemIndex,
			);
		const id = video[shape.idField];
		if (typeof id !== 'string' || id === '')
			throw unreadableBody(
				node,
				shape.what,
				`video ${index + 1} of "${shape.field}" has no "${shape.idField}"`,
				itemIndex,
			);
	});
	return list as IDataObject[];
}

/** One video object with its id (Enterprise Get). */
export function videoObject(
	node: INode,
	body: unknown,
	idField: string,
	what: string,
	itemIndex: number,
): IDataObject {
	const video = bodyObject(node, body, what, itemIndex);
	const id = video[idField];
	if (typeof id !== 'string' || id === '')
		throw unreadableBody(node, what, `it has no "${idField}"`, itemIndex);
	return video;
}

/** The Partner list's next_cursor: text, or the end (absent, null or ""). */
export function nextCursor(node: INode, body: IDataObject, itemIndex: number): string | undefined {
	const cursor = body.next_cursor;
	if (cursor === undefined || cursor === null || cursor === '') return undefined;
	if (typeof cursor !== 'string')
		throw unreadableBody(
			node,
			'a list page',
			`"next_cursor" is ${kind(cursor)}, not text`,
			itemIndex,
		);
	return cursor;
}
