/** Error bodies of both APIs (docs/gridbank-api.md#partner-errors, #enterprise-errors), the edge layer and S3-style storage. */

export interface ApiResponse {
	status: number;
	headers?: Record<string, string>;
	/** JSON-serialised unless `raw` is set. */
	body?: unknown;
	raw?: { text: string; contentType: string };
}

export function json(status: number, body: unknown, headers?: Record<string, string>): ApiResponse {
	return { status, body, headers };
}

/** Partner envelope: {"detail": {"error": {"code", "message", "details"}}}. */
export function partnerError(
	status: number,
	code: string,
	message: string,
	headers?: Record<string, string>,
	details: Record<string, unknown> = {},
): ApiResponse {
	return json(status, { detail: { error: { code, message, details } } }, headers);
}

/** Enterprise error: {"detail": "<message>"}. */
export function enterpriseError(
	status: number,
	message: string,
	headers?: Record<string, string>,
): ApiResponse {
	return json(status, { detail: message }, headers);
}

/** GridBank's edge protection: 403 without the API's envelope. */
export function edgeForbidden(): ApiResponse {
	return json(403, { message: 'Forbidden' });
}

export const STATUS_TEXT: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	410: 'Gone',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

export function htmlError(status: number, headers?: Record<string, string>): ApiResponse {
	const text = `<html><body><h1>${status} ${STATUS_TEXT[status] ?? 'Error'}</h1></body></html>`;
	return { status, headers, raw: { text, contentType: 'text/html' } };
}

/** The echoAuthorization fault: the Authorization header, its bare secret and a JSON-escaped copy in the body. */
export function echoAuthorization(
	r: ApiResponse,
	authorization: string | undefined,
	forms: string[] = [],
): ApiResponse {
	if (!authorization) return r;
	const token = authorization.replace(/^Bearer\s+/i, '');
	const secret = token.includes('.') ? token.slice(token.indexOf('.') + 1) : token;
	const more = forms.length ? `; also ${forms.join(' | ')}` : '';
	const said = ` (received Authorization: ${authorization}; secret ${secret}${more})`;
	// A header holds no line break: the multi-line forms come split by spaces there.
	const headers = { ...r.headers, 'X-Echo': said.trim().replace(/\r?\n/g, ' ') };
	if (r.raw)
		return {
			...r,
			headers,
			raw: { ...r.raw, text: r.raw.text.replace('</body>', `<pre>${said}</pre></body>`) },
		};
	const escaped = [...authorization]
		.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
		.join('');
	const append = (value: unknown): unknown =>
		typeof value === 'string'
			? `${value}${said}`
			: Array.isArray(value)
				? value.map(append)
				: value && typeof value === 'object'
					? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, append(v)]))
					: value;
	// The escaped copy only survives as raw JSON text: JSON.stringify would write it plainly.
	const text = JSON.stringify(append(r.body ?? null)).replace(/}$/, `,"echo":"${escaped}"}`);
	return { ...r, headers, raw: { text, contentType: 'application/json' } };
}

export function s3Xml(code: string, message: string): string {
	return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>`;
}
