// The answer to a request a failNext switch hit: GridBank's error body for the status, in each
// API's own shape, with Retry-After and X-RateLimit-* as asked.
import { enterpriseError, htmlError, json, partnerError, type ApiResponse } from './errors';
import type { FailNextOptions } from './types';

const FAIL_TEXT: Record<number, [string, string]> = {
	400: ['bad_request', 'Bad request'],
	404: ['not_found', 'Not found'],
	429: ['rate_limit_exceeded', 'Rate limit exceeded. Retry after the time given in Retry-After.'],
	500: ['internal_error', 'Internal server error'],
	502: ['bad_gateway', 'Bad gateway'],
	503: ['service_unavailable', 'Service temporarily unavailable'],
	504: ['gateway_timeout', 'Gateway timeout'],
};

export function failureAnswer(fail: FailNextOptions, rawPath: string, now: number): ApiResponse {
	const headers: Record<string, string> = {};
	if (fail.status === 429 || fail.retryAfter !== undefined)
		headers['Retry-After'] = fail.retryAfter ?? '1';
	if (fail.rateLimitHeaders) {
		headers['X-RateLimit-Limit'] = '300';
		headers['X-RateLimit-Remaining'] = '0';
		headers['X-RateLimit-Reset'] = String(
			Math.ceil(now / 1000) + (fail.rateLimitResetSeconds ?? 1),
		);
	}
	if (fail.htmlBody) return htmlError(fail.status, headers);
	if (fail.status === 422) {
		const detail = fail.validation ?? [
			{
				loc: ['query', 'per_page'],
				msg: 'Input should be less than or equal to 20',
				type: 'less_than_equal',
			},
		];
		return json(422, { detail });
	}
	const [code, message] = FAIL_TEXT[fail.status] ?? ['internal_error', 'Internal server error'];
	if (rawPath.startsWith('/partner/')) return partnerError(fail.status, code, message, headers);
	// docs/gridbank-api.md#enterprise-usage: usage can answer 502 "usage data unavailable in this environment".
	if (fail.status === 502 && rawPath === '/external/v1/usage/me') {
		return enterpriseError(502, 'usage data unavailable in this environment', headers);
	}
	return enterpriseError(fail.status, message, headers);
}
