// Reads GridBank error bodies: the Partner envelope {detail: {error: {code, message}}},
// the Enterprise {detail: string}, 422 {detail: [{loc, msg}]}, or a non-JSON proxy page.
import { isObject } from './values';

export interface ApiErrorInfo {
	code?: string;
	message?: string;
	/** One "loc: msg" line per 422 validation entry. */
	validation?: string[];
}

const MAX_TEXT = 300;

/** Message precedence from GridBank's SDKs: detail.error.message, detail string, body text. */
export function readApiError(body: unknown): ApiErrorInfo {
	if (isObject(body)) {
		const detail = body.detail;
		if (isObject(detail) && isObject(detail.error)) {
			const { code, message } = detail.error;
			return {
				code: typeof code === 'string' ? code : undefined,
				message: typeof message === 'string' ? message : undefined,
			};
		}
		if (typeof detail === 'string') return { message: detail };
		if (Array.isArray(detail)) {
			const validation = detail.filter(isObject).map((entry) => {
				const loc = Array.isArray(entry.loc) ? entry.loc.join('.') : '';
				const msg = typeof entry.msg === 'string' ? entry.msg : 'invalid value';
				return loc ? `${loc}: ${msg}` : msg;
			});
			return { validation, message: validation.join('; ') };
		}
		if (typeof body.message === 'string') return { message: body.message };
		return {};
	}
	if (typeof body === 'string' && body.trim()) return { message: pageText(body) };
	return {};
}

/** A page's text for a message: tags and runs of whitespace dropped, at most MAX_TEXT characters. */
export function pageText(body: string): string {
	const text = body
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}
