// The API origin's answer to one request (Partner and Enterprise): the edge's checks, then the
// fault switches in the order a real stack meets them (connection, redirect, failure, 403), the
// API's own answer, and the switches that alter a 200; then it is sent (dripped or cut if asked).
import type { IncomingMessage, ServerResponse } from 'node:http';

import { failureAnswer } from './api-failure';
import { stampDate } from './clock';
import type { Engine, RequestContext } from './engine';
import { handleEnterprise } from './enterprise-routes';
import { echoAuthorization, edgeForbidden, json, partnerError, type ApiResponse } from './errors';
import { keyForms } from './key-forms';
import { hostileErrorJson } from './hostile-body';
import { sendOversize } from './oversize-body';
import { handlePartner } from './partner-routes';
import type { LoggedRequest } from './types';

/** What the answer needs of the simulator: its engine and the origins a redirect points to. */
export interface ApiOrigin {
	readonly engine: Engine;
	readonly baseUrl: string;
	readonly redirectUrl: string;
}

export interface ApiRequest {
	req: IncomingMessage;
	res: ServerResponse;
	entry: LoggedRequest;
	rawPath: string;
	rawQuery: string;
	now: number;
}

export function answerApi(origin: ApiOrigin, request: ApiRequest): void {
	const { req, res, entry, rawPath, rawQuery, now } = request;
	const f = origin.engine.faults;
	stampDate(res, now, f.clock);
	const ua = req.headers['user-agent'];
	let response: ApiResponse;
	let afterBytes: number | undefined;
	if (!ua || !ua.trim() || f.edge) {
		response = edgeForbidden();
	} else {
		if (f.notHttp > 0) {
			f.notHttp--;
			// Not HTTP at all: the client's parser fails, with no network error code.
			req.socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n');
			return;
		}
		const reset = f.takeReset('api', rawPath);
		if (reset && reset.afterBytes === undefined) {
			req.socket.destroy();
			return;
		}
		afterBytes = reset?.afterBytes;
		const redirect = f.takeApiRedirect(rawPath);
		const fail = redirect ? undefined : f.takeFail('api', rawPath);
		const forbidden =
			!redirect && !fail && rawPath.startsWith('/partner/')
				? f.field.takeForbidden(rawPath)
				: undefined;
		if (redirect) {
			const target = redirect.to === 'other' ? origin.redirectUrl : origin.baseUrl;
			response = {
				status: redirect.status ?? 302,
				headers: { Location: `${target}${req.url ?? '/'}` },
				body: null,
			};
		} else if (fail) {
			response = failureAnswer(fail, rawPath, now);
			if (fail.bodyBytes) {
				const text = hostileErrorJson(req.headers.authorization ?? '', fail.bodyBytes);
				response = { ...response, raw: { text, contentType: 'application/json' } };
			}
		} else if (forbidden) response = partnerError(403, forbidden.code, 'Forbidden.');
		else {
			const ctx: RequestContext = {
				method: req.method ?? 'GET',
				rawPath,
				query: new URLSearchParams(rawQuery),
				headers: req.headers,
				now,
			};
			if (rawPath.startsWith('/partner/')) response = handlePartner(origin.engine, ctx);
			else if (rawPath.startsWith('/external/')) response = handleEnterprise(origin.engine, ctx);
			else response = json(404, { detail: 'Not Found' });
			if (
				response.status === 200 &&
				/\/download$/.test(rawPath) &&
				response.body &&
				typeof response.body === 'object'
			) {
				const signed = f.field.takeSignedUrl();
				if (signed)
					response = { ...response, body: { ...(response.body as object), url: signed.value } };
			}
			const delta =
				response.status === 200 && /^\/external\/v1\/videos\/.+\/download$/.test(rawPath)
					? f.field.takeSizeDelta()
					: undefined;
			if (delta !== undefined) {
				const body = response.body as { file_size: number };
				response = { ...response, body: { ...body, file_size: body.file_size + delta } };
			}
			const sizeValue =
				response.status === 200 && /^\/external\/v1\/videos\/.+\/download$/.test(rawPath)
					? f.bytes.takeFileSize()
					: undefined;
			if (sizeValue)
				response = {
					...response,
					body: { ...(response.body as object), file_size: sizeValue.value },
				};
			const replaced = response.status === 200 ? f.field.takeBody(rawPath) : undefined;
			if (replaced) response = { ...response, body: replaced.body };
			if (response.status === 200 && f.takeNonJson(rawPath)) {
				response = {
					status: 200,
					headers: response.headers,
					raw: { text: '<html><body><p>OK</p></body></html>', contentType: 'text/html' },
				};
			}
		}
	}
	const rateHeaders = f.time.takeRateHeaders(rawPath, now);
	if (rateHeaders) response = { ...response, headers: { ...response.headers, ...rateHeaders } };
	if ((f.echoAuthorization || f.echoKeyForms) && response.status >= 400)
		response = echoAuthorization(
			response,
			req.headers.authorization,
			f.echoKeyForms && req.headers.authorization ? keyForms(req.headers.authorization) : [],
		);
	const oversize = response.status === 200 ? f.takeOversize(rawPath) : undefined;
	if (oversize !== undefined) return sendOversize(res, response, oversize, entry);
	send(origin.engine, res, response, entry, afterBytes);
}

function send(
	engine: Engine,
	res: ServerResponse,
	r: ApiResponse,
	entry: LoggedRequest,
	afterBytes?: number,
): void {
	const body = r.raw ? r.raw.text : JSON.stringify(r.body ?? null);
	const bytes = Buffer.from(body, 'utf8');
	entry.status = r.status;
	res.writeHead(r.status, {
		'Content-Type': r.raw ? r.raw.contentType : 'application/json',
		'Content-Length': String(bytes.length),
		...r.headers,
	});
	const drip = engine.faults.field.apiDripMs;
	if (drip > 0) {
		let sent = 0;
		const timer = setInterval(() => {
			if (res.destroyed || sent >= bytes.length) {
				clearInterval(timer);
				if (!res.destroyed) res.end();
				return;
			}
			res.write(bytes.subarray(sent, sent + 1));
			sent++;
		}, drip);
		res.once('close', () => clearInterval(timer));
		return;
	}
	if (afterBytes !== undefined && afterBytes < bytes.length) {
		res.write(bytes.subarray(0, afterBytes));
		res.socket?.end();
		setTimeout(() => res.socket?.destroy(), 50).unref();
		return;
	}
	res.end(bytes);
}
