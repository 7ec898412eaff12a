// Input checks, run before any request so bad values never reach GridBank.
import type { INode } from 'n8n-workflow';

import { inputError } from './transport/errors';

/** The item a check's error names: its node and index (an ItemContext is one). */
export interface ItemRef {
	node: INode;
	itemIndex: number;
}

// Control characters are exactly what this matches, to refuse them.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A parameter that must be a non-empty string; expressions may resolve to anything. */
export function requireText(
	{ node, itemIndex }: ItemRef,
	value: unknown,
	label: string,
	maxLength: number,
): string {
	if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
	if (typeof value !== 'string')
		throw inputError(
			node,
			`${label} must be text, not ${value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value}`,
			`Check the value or expression in the "${label}" field.`,
			itemIndex,
		);
	const text = value.trim();
	if (!text)
		throw inputError(
			node,
			`${label} is empty`,
			`Enter a value in the "${label}" field.`,
			itemIndex,
		);
	if (text.length > maxLength)
		throw inputError(
			node,
			`${label} is too long (${text.length} characters, at most ${maxLength})`,
			`Check the value or expression in the "${label}" field.`,
			itemIndex,
		);
	if (CONTROL.test(text))
		throw inputError(
			node,
			`${label} contains control characters`,
			`Remove line breaks and tabs from "${label}".`,
			itemIndex,
		);
	return text;
}

/**
 * requireVideoId's rules as the editor's "By ID" check (n8n anchors it with ^…$): 1-50
 * characters once trimmed, no control characters or backslash, no empty, "." or ".." path
 * segment, no encoded slash or backslash. Never stricter than the node's own check, which
 * has the last word (an expression is not checked in the editor at all).
 */
export const VIDEO_KEY_REGEX = String.raw`\s*(?!/)(?!.*/\s*$)(?!.*//)(?!(?:.*/)?\.\.?(?:/|\s*$))(?!.*%(?:2[fF]|5[cC]))[^\s\\\x00-\x1f\x7f](?:[^\\\x00-\x1f\x7f]{0,48}[^\s\\\x00-\x1f\x7f])?\s*`;
/**
 * The same for an API that also limits the alphabet to letters, digits, "/", "_" and "-"
 * (Enterprise's video_id): the editor's check and, anchored, the node's.
 */
export const VIDEO_ID_REGEX = String.raw`\s*(?!/)(?!.*/\s*$)(?!.*//)[a-zA-Z0-9/_-]{1,50}\s*`;

/**
 * A video key or id: 1-50 characters, never a path trick; with `idRegex` (an editor "By ID"
 * regex above) also of its alphabet.
 */
export function requireVideoId(
	item: ItemRef,
	value: unknown,
	label: string,
	idRegex?: string,
): string {
	const { node, itemIndex } = item;
	// An id that arrives as a number was most likely mapped from the wrong field.
	if (typeof value === 'number')
		throw inputError(
			node,
			`${label} must be text, not a number`,
			`Video ids are text, such as those List / Search return. If the number is meant, write it as text: {{ String(...) }}.`,
			itemIndex,
		);
	const id = requireText(item, value, label, 50);
	const segments = id.split('/');
	if (
		segments.some((segment) => segment === '' || segment === '.' || segment === '..') ||
		/%2f|%5c/i.test(id) ||
		id.includes('\\')
	)
		throw inputError(
			node,
			`${label} "${id}" is not a valid video id`,
			'Video ids never start or end with "/", and never contain "..", "\\" or encoded slashes.',
			itemIndex,
		);
	if (idRegex && !new RegExp(`^(?:${idRegex})$`).test(id))
		throw inputError(
			node,
			`${label} "${id}" is not a valid video id`,
			'Video ids use only letters, digits, "/", "_" and "-" (1-50 characters).',
			itemIndex,
		);
	return id;
}

/** Path segment: each id is percent-encoded whole, "/" included. */
export const encodeId = (id: string) => encodeURIComponent(id);
