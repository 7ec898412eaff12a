// Booleans and numbers as expressions give them: AI agents' $fromAI and {{ }} often yield the
// strings "true" / "false" / "25". Those are read as meant; anything else is refused with the
// parameter's display name, so `download: "false"` never downloads and a typo never means "all".
import type { INode } from 'n8n-workflow';

import { inputError } from './transport/errors';

const show = (value: unknown) =>
	typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));

/** true / false, or the strings "true" / "false" (any case, spaces trimmed). */
export function readBoolean(
	node: INode,
	value: unknown,
	label: string,
	itemIndex: number,
): boolean {
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string') {
		const text = value.trim().toLowerCase();
		if (text === 'true') return true;
		if (text === 'false') return false;
	}
	throw inputError(
		node,
		`${label} must be true or false`,
		`Got ${show(value)}. Check the value or expression in the "${label}" field.`,
		itemIndex,
	);
}

/** A number, or a string that is exactly a decimal number ("25", " 2.5 "); undefined otherwise. */
export function numberFrom(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value))
		return Number(value);
	return undefined;
}

/** A whole number from `min` to `max`, given as a number or a numeric string. */
export function readInteger(
	node: INode,
	value: unknown,
	label: string,
	itemIndex: number,
	min: number,
	max = Number.MAX_SAFE_INTEGER,
): number {
	const number = numberFrom(value);
	if (number === undefined || !Number.isInteger(number) || number < min || number > max)
		throw inputError(
			node,
			`${label} must be a whole number${max === Number.MAX_SAFE_INTEGER ? ` of at least ${min}` : ` from ${min} to ${max}`}`,
			`Got ${show(value)}.`,
			itemIndex,
		);
	return number;
}
