// The small readers every layer needs, once: a header of any response (API, storage, S3), a JSON
// object, a size in MiB for messages.
import type { IDataObject } from 'n8n-workflow';

export const MiB = 1024 * 1024;

/** A size for a message, rounded up: "101 MiB". */
export const mib = (bytes: number) => `${Math.ceil(bytes / MiB)} MiB`;

/** A 2xx answer: what every layer takes as success (a 3xx is a redirect, handled apart). */
export const isSuccess = (status: number) => status >= 200 && status < 300;

/** A JSON object: not null, not an array. */
export const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A response header as text, by its name whatever case the response used. A header sent more
 * than once is a list: its first value, or with `single` undefined (two Retry-After headers are
 * not a wait anyone can trust).
 */
export function header(
	headers: Record<string, unknown> | undefined,
	name: string,
	{ single = false } = {},
): string | undefined {
	if (!headers) return undefined;
	let value = headers[name];
	if (value === undefined) {
		const lower = name.toLowerCase();
		const key = Object.keys(headers).find((k) => k.toLowerCase() === lower);
		value = key === undefined ? undefined : headers[key];
	}
	if (Array.isArray(value)) {
		if (single && value.length !== 1) return undefined;
		value = value[0];
	}
	return value === undefined || value === null ? undefined : String(value);
}
