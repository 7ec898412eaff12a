/** The storage origin's S3-style XML error answers: refusals, failures, signature and range errors. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { s3Xml } from './errors';
import type { LoggedRequest } from './types';

export const REFUSALS: Record<number, [string, string]> = {
	400: ['ExpiredToken', 'The provided token has expired.'],
	401: ['Unauthorized', 'The request could not be authenticated.'],
	403: ['AccessDenied', 'Request has expired'],
	410: ['Gone', 'The requested object is no longer available.'],
};

export const FAILURES: Record<number, [string, string]> = {
	429: ['SlowDown', 'Please reduce your request rate.'],
	500: ['InternalError', 'We encountered an internal error. Please try again.'],
	502: ['BadGateway', 'Bad gateway.'],
	503: ['ServiceUnavailable', 'Service is unable to handle request.'],
	504: ['GatewayTimeout', 'Gateway timeout.'],
};

export interface StorageRequest {
	req: IncomingMessage;
	res: ServerResponse;
	rawPath: string;
	rawQuery: string;
	entry: LoggedRequest;
	target: 'storage' | 'redirect';
	/** Origin that redirectStorage sends clients to. */
	redirectOrigin: string;
}

export function xml(
	s: StorageRequest,
	status: number,
	code: string,
	message: string,
	extra: Record<string, string> = {},
): void {
	const body = s3Xml(code, message);
	s.entry.status = status;
	s.res.writeHead(status, {
		'Content-Type': 'application/xml',
		'Content-Length': String(Buffer.byteLength(body)),
		'x-amz-request-id': '4442587FB7D0A2F9',
		...extra,
	});
	s.res.end(s.req.method === 'HEAD' ? undefined : body);
}
