// An item's parameters as expressions give them: AI agents' $fromAI and {{ }} often yield the
// strings "true" / "false" / "25". Those are read as meant; anything else is refused with the
// parameter's display name, so `download: "false"` never downloads and a typo never means "all".
// Every reader takes the item (an ItemContext is one) and the parameter's name.
import type { IGetNodeParameterOptions } from 'n8n-workflow';

import { DEFAULT_MAX_RETRIES } from './transport/client';
import { inputError } from './transport/errors';
import { type ItemRef, requireVideoId } from './validate';

/** What a reader needs of an item: its node and index (for errors) and its parameters. */
export interface ItemParameters extends ItemRef {
	param(name: string, fallback?: unknown, options?: IGetNodeParameterOptions): unknown;
}

const show = (value: unknown) =>
	typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** true / false, or the strings "true" / "false" (any case, spaces trimmed). */
export function readBoolean(
	item: ItemParameters,
	name: string,
	label: string,
	fallback = false,
): boolean {
	const value = item.param(name, fallback);
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string') {
		const text = value.trim().toLowerCase();
		if (text === 'true') return true;
		if (text === 'false') return false;
	}
	throw inputError(
		item.node,
		`${label} must be true or false`,
		`Got ${show(value)}. Check the value or expression in the "${label}" field.`,
		item.itemIndex,
	);
}

/** A number, or a string that is exactly a decimal number ("25", " 2.5 "); undefined otherwise. */
export function numberFrom(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value))
		return Number(value);
	return undefined;
}

export interface IntegerRule {
	min: number;
	max?: number;
	/** The value when the parameter is not set at all. */
	fallback?: unknown;
	/** An empty value ('', null) reads as undefined instead of being refused. */
	optional?: boolean;
}

/** A whole number from `min` to `max`, given as a number or a numeric string ("0x10", "1e3" are not). */
export function readInteger(
	item: ItemParameters,
	name: string,
	label: string,
	rule: IntegerRule & { optional: true },
): number | undefined;
export function readInteger(
	item: ItemParameters,
	name: string,
	label: string,
	rule: IntegerRule,
): number;
export function readInteger(
	item: ItemParameters,
	name: string,
	label: string,
	{ min, max = Number.MAX_SAFE_INTEGER, fallback = '', optional = false }: IntegerRule,
): number | undefined {
	const value = item.param(name, fallback);
	if (optional && isEmpty(value)) return undefined;
	const number = numberFrom(value);
	if (number === undefined || !Number.isInteger(number) || number < min || number > max)
		throw inputError(
			item.node,
			`${label} must be a whole number${max === Number.MAX_SAFE_INTEGER ? ` of at least ${min}` : ` from ${min} to ${max}`}`,
			`Got ${show(value)}.`,
			item.itemIndex,
		);
	return number;
}

/** Options → Max Retries: a whole number of at least 0, at most 10 used; empty is the default. */
export const readMaxRetries = (item: ItemParameters): number =>
	Math.min(
		readInteger(item, 'options.maxRetries', 'Max Retries', {
			min: 0,
			fallback: DEFAULT_MAX_RETRIES,
			optional: true,
		}) ?? DEFAULT_MAX_RETRIES,
		10,
	);

/** Options → Parallel Connections: its bounds, used by the download's segment plan too. */
export const MIN_CONNECTIONS = 1;
export const MAX_CONNECTIONS = 16;
/** Its default, chosen from `npm run bench`'s WAN phase (README). */
export const DEFAULT_CONNECTIONS = 8;

export const readParallelConnections = (item: ItemParameters): number =>
	readInteger(item, 'options.parallelConnections', 'Parallel Connections', {
		min: MIN_CONNECTIONS,
		max: MAX_CONNECTIONS,
		fallback: DEFAULT_CONNECTIONS,
	});

export type OutputFormat = 'api' | 'video';

/** Options → Output Format (an expression may give anything: only the two values pass). */
export function readOutputFormat(item: ItemParameters): OutputFormat {
	const value = item.param('options.outputFormat', 'api');
	if (isEmpty(value) || value === 'api') return 'api';
	if (value === 'video') return 'video';
	throw inputError(
		item.node,
		`Output Format "${String(value)}" is not one of api, video`,
		'Choose "API Fields" (api) or "Video" (video).',
		item.itemIndex,
	);
}

/**
 * A video picker's value (descriptions/video-locator.ts), checked like any video id. A workflow
 * saved before the picker existed holds a plain string: n8n hands that back unchanged.
 */
export const readVideoParameter = (
	item: ItemParameters,
	name: string,
	label: string,
	idRegex?: string,
): string =>
	requireVideoId(item, item.param(name, undefined, { extractValue: true }), label, idRegex);
