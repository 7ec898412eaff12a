// Input checks, run before any request so bad values never reach GridBank.
import type { INode } from 'n8n-workflow';

import { inputError } from './transport/errors';
import { numberFrom } from './read-parameters';

// Control characters are exactly what this matches, to refuse them.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A parameter that must be a non-empty string; expressions may resolve to anything. */
export function requireText(
	node: INode,
	value: unknown,
	label: string,
	itemIndex: number,
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

/** A video key or id: 1-50 characters, optionally of a fixed alphabet, never a path trick. */
export function requireVideoId(
	node: INode,
	value: unknown,
	label: string,
	itemIndex: number,
	pattern?: RegExp,
): string {
	// An id that arrives as a number was most likely mapped from the wrong field.
	if (typeof value === 'number')
		throw inputError(
			node,
			`${label} must be text, not a number`,
			`Video ids are text, such as those List / Search return. If the number is meant, write it as text: {{ String(...) }}.`,
			itemIndex,
		);
	const id = requireText(node, value, label, itemIndex, 50);
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
	if (pattern && !pattern.test(id))
		throw inputError(
			node,
			`${label} "${id}" is not a valid video id`,
			'Video ids use only letters, digits, "/", "_" and "-" (1-50 characters).',
			itemIndex,
		);
	return id;
}

/** A whole number within bounds, or undefined when left empty. */
export function optionalInteger(
	node: INode,
	value: unknown,
	label: string,
	itemIndex: number,
	min: number,
	max = Number.MAX_SAFE_INTEGER,
): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	// "25" from an expression is 25; " ", "0x10" or "1e3" are not numbers a user typed.
	const number = numberFrom(value);
	if (number === undefined || !Number.isInteger(number) || number < min || number > max)
		throw inputError(
			node,
			`${label} must be a whole number${max === Number.MAX_SAFE_INTEGER ? ` of at least ${min}` : ` from ${min} to ${max}`}`,
			`Got ${JSON.stringify(value)}.`,
			itemIndex,
		);
	return number;
}

/** Path segment: each id is percent-encoded whole, "/" included. */
export const encodeId = (id: string) => encodeURIComponent(id);
