// Server text (error bodies, proxy pages, headers) can echo the request's Authorization header.
// Everything GridBank, storage or a proxy sends is passed through here before it can reach a
// message, an output item, static data or a log line.
const REDACTED = '[redacted]';
/** A key's secret part shorter than this could be an ordinary word: only the whole key is scrubbed then. */
const MIN_SECRET_LENGTH = 8;

/** The forms a secret can take in server text: as is, JSON-escaped, URL-encoded. */
function forms(secret: string): string[] {
	const json = JSON.stringify(secret).slice(1, -1);
	return [...new Set([secret, json, json.replace(/\//g, '\\/'), encodeURIComponent(secret)])];
}

/** The strings to remove for one API key: the whole key and, for apik_<id>.<secret>, the secret. */
export function secretsOf(apiKey: string): string[] {
	const dot = apiKey.indexOf('.');
	const secret = dot >= 0 ? apiKey.slice(dot + 1) : '';
	const parts = secret.length >= MIN_SECRET_LENGTH ? [apiKey, secret] : [apiKey];
	return parts
		.filter(Boolean)
		.flatMap(forms)
		.sort((a, b) => b.length - a.length);
}

export function scrubText(text: string, secrets: string[]): string {
	let out = text;
	for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
	return out;
}

/** Scrubs every string (keys included) in parsed JSON. */
export function scrubValue(value: unknown, secrets: string[]): unknown {
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

export function scrubHeaders<T extends Record<string, unknown>>(headers: T, secrets: string[]): T {
	return scrubValue(headers, secrets) as T;
}
