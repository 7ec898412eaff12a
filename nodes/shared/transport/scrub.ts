// Server text (error bodies, proxy pages, headers) can echo the request's Authorization header.
// Everything GridBank, storage or a proxy sends is passed through here before it can reach a
// message, an output item, static data or a log line.
import { keyPattern } from './key-patterns';

const REDACTED = '[redacted]';
/** A key's secret part shorter than this could be an ordinary word: only the whole key is scrubbed then. */
const MIN_SECRET_LENGTH = 8;

/** Every form of one API key, compiled once per credential (key-patterns.ts). */
export type Secrets = RegExp;

export function secretsOf(apiKey: string): Secrets {
	return keyPattern(apiKey, MIN_SECRET_LENGTH);
}

export function scrubText(text: string, secrets: Secrets): string {
	// A global expression: replace() starts from the beginning whatever lastIndex says.
	return text.replace(secrets, REDACTED);
}

/** Scrubs every string (keys included) in parsed JSON. */
export function scrubValue(value: unknown, secrets: Secrets): unknown {
	if (typeof value === 'string') return scrubText(value, secrets);
	if (Array.isArray(value)) return value.map((entry) => scrubValue(entry, secrets));
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value).map(([name, entry]) => [
				scrubText(name, secrets),
				scrubValue(entry, secrets),
			]),
		);
	return value;
}

export function scrubHeaders<T extends Record<string, unknown>>(headers: T, secrets: Secrets): T {
	return scrubValue(headers, secrets) as T;
}
