/**
 * S3-style storage origin serving signed master-file URLs: signature and expiry checks
 * (403 XML), Range requests (206), the four Content-Disposition modes, and the download
 * faults (cut short, wrong Content-Length, bytes past the end, slow, refusal, redirect to a
 * third origin).
 * Bytes are generated in chunks with backpressure: memory stays flat for multi-GB files.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerDisposition } from './disposition';
import { ifRangeMatches, validators, versionedId } from './byte-faults';
import type { Engine } from './engine';
import { s3Xml, STATUS_TEXT } from './errors';
import { fileBytes } from './file-content';
import { verifyUrl } from './signing';
import type { LoggedRequest, RangedFault } from './types';
import { WAN_CHUNK, type WanLink } from './wan-link';

const CHUNK = 256 * 1024;

const REFUSALS: Record<number, [string, string]> = {
	400: ['ExpiredToken', 'The provided token has expired.'],
	401: ['Unauthorized', 'The request could not be authenticated.'],
	403: ['AccessDenied', 'Request has expired'],
	410: ['Gone', 'The requested object is no longer available.'],
};

const FAILURES: Record<number, [string, string]> = {
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

function xml(
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

export function parseRange(
	header: string,
	size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
	const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
	if (!m) return undefined; // malformed or several ranges: ignored, the whole file is sent
	const [, a, b] = m as unknown as [string, string, string];
	if (a === '' && b === '') return undefined;
	if (a === '') {
		const suffix = Number(b);
		if (suffix === 0 || size === 0) return 'unsatisfiable';
		return { start: Math.max(0, size - suffix), end: size };
	}
	const start = Number(a);
	if (b !== '' && Number(b) < start) return undefined;
	if (start >= size) return 'unsatisfiable';
	return { start, end: b === '' ? size : Math.min(size, Number(b) + 1) };
}

function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}

/** Resolves when the response can take more data, or when it closed. */
function drained(res: ServerResponse): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			res.off('drain', done);
			res.off('close', done);
			resolve();
		};
		res.on('drain', done);
		res.on('close', done);
	});
}

/** Resolves after `ms`, or as soon as the response closed. */
function pause(res: ServerResponse, ms: number): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			clearTimeout(timer);
			res.off('close', done);
			resolve();
		};
		const timer = setTimeout(done, ms);
		res.on('close', done);
	});
}

/** Writes bytes [start, start+count) of the file; false if the client went away. */
async function pump(
	res: ServerResponse,
	id: string,
	start: number,
	count: number,
	bytesPerSecond: number,
	wan?: WanLink,
	stall?: { afterBytes: number; ms: number },
): Promise<boolean> {
	const chunk = wan
		? WAN_CHUNK
		: bytesPerSecond > 0
			? Math.max(1, Math.min(65536, Math.floor(bytesPerSecond / 20)))
			: CHUNK;
	const began = Date.now();
	let sent = 0;
	while (sent < count) {
		if (res.destroyed || res.writableEnded) return false;
		if (stall && sent >= stall.afterBytes) {
			// Nothing at all for a while, the connection held open (the stallAfter switch).
			await pause(res, stall.ms);
			stall = undefined;
			continue;
		}
		const n = Math.min(chunk, count - sent, stall ? stall.afterBytes - sent : Infinity);
		if (wan) {
			const wait = wan.book(res.socket as NonNullable<ServerResponse['socket']>, n);
			if (wait >= 1) await sleep(wait);
			if (res.destroyed) return false;
		}
		const ok = res.write(fileBytes(id, start + sent, start + sent + n));
		sent += n;
		if (!ok) await drained(res);
		if (bytesPerSecond > 0) {
			const due = began + (sent / bytesPerSecond) * 1000;
			const wait = due - Date.now();
			if (wait > 0) await sleep(wait);
		}
	}
	return !res.destroyed;
}

export async function handleStorage(engine: Engine, s: StorageRequest): Promise<void> {
	const { req, res, rawPath, rawQuery, entry } = s;
	const faults = engine.faults;
	let afterBytes: number | undefined;

	// The WAN link's round trip comes before anything storage answers.
	if (faults.wan && s.target === 'storage') await sleep(faults.wan.firstByteDelay(req.socket));
	if (s.target === 'storage') {
		const reset = faults.takeReset('storage', rawPath);
		if (reset) {
			if (reset.afterBytes === undefined) {
				req.socket.destroy();
				return;
			}
			afterBytes = reset.afterBytes;
		}
		const fail = faults.takeFail('storage', rawPath);
		if (fail) {
			const extra: Record<string, string> = {};
			if (fail.retryAfter !== undefined || fail.status === 429)
				extra['Retry-After'] = fail.retryAfter ?? '1';
			if (fail.htmlBody) {
				const body = `<html><body><h1>${fail.status} ${STATUS_TEXT[fail.status] ?? 'Error'}</h1></body></html>`;
				entry.status = fail.status;
				res.writeHead(fail.status, {
					'Content-Type': 'text/html',
					'Content-Length': String(Buffer.byteLength(body)),
					...extra,
				});
				res.end(body);
				return;
			}
			const [code, message] = FAILURES[fail.status] ?? ['InternalError', 'Internal error'];
			return xml(s, fail.status, code, message, extra);
		}
		const refusal = faults.takeRefusal();
		if (refusal) {
			const [code, message] = REFUSALS[refusal] as [string, string];
			return xml(s, refusal, code, message);
		}
	}

	const verified = verifyUrl(engine.secret, req.method ?? 'GET', rawPath, rawQuery);
	if (!verified.ok) {
		return verified.reason === 'missing'
			? xml(
					s,
					403,
					'AccessDenied',
					'Query-string authentication requires the X-Amz-Signature, X-Amz-Date and X-Amz-Expires parameters',
				)
			: xml(
					s,
					403,
					'AccessDenied',
					'The request signature we calculated does not match the signature you provided.',
				);
	}
	if (
		engine.now() >= verified.expiresAt * 1000 ||
		faults.earlyExpiredSignatures.has(verified.signature)
	) {
		return xml(s, 403, 'AccessDenied', 'Request has expired', {});
	}
	const video = engine.world.video(verified.key);
	if (!video || faults.missingMasters.has(video.id))
		return xml(s, 404, 'NoSuchKey', 'The specified key does not exist.');

	if (s.target === 'storage' && faults.takeRedirect()) {
		entry.status = 302;
		res.writeHead(302, {
			Location: `${s.redirectOrigin}${rawPath}?${rawQuery}`,
			'Content-Length': '0',
		});
		res.end();
		return;
	}

	const file = engine.world.file(video.id);
	const bytes = faults.bytes;
	// Each GET is answered by one version of the object (replaceObject switches versions).
	const version =
		s.target === 'storage' && req.method === 'GET' ? bytes.versionOfNextGet() : bytes.version;
	const { etag, lastModified } = validators(video.id, file.size, version);
	const current: { etag?: string; lastModified?: string } =
		bytes.omitValidators === true
			? {}
			: bytes.omitValidators === 'etag'
				? { lastModified }
				: { etag, lastModified };
	if (s.target === 'storage') {
		const page = faults.field.takePage() ?? faults.videoPages.get(video.id);
		if (page) {
			const body =
				page === 'html'
					? '<!doctype html><html><body><h1>Sign in</h1><form action="/login"></form></body></html>'
					: '';
			entry.status = 200;
			res.writeHead(200, {
				'Content-Type':
					page === 'html' ? 'text/html; charset=utf-8' : (file.contentType ?? 'video/quicktime'),
				'Content-Length': String(Buffer.byteLength(body)),
			});
			res.end(body);
			return;
		}
	}
	let start = 0;
	let end = file.size;
	let status = 200;
	const headers: Record<string, string> = { 'x-amz-request-id': '4442587FB7D0A2F9' };
	if (current.lastModified) headers['Last-Modified'] = current.lastModified;
	if (current.etag) headers.ETag = current.etag;
	let rangedFault: RangedFault | undefined;
	if (file.rangeSupport) {
		headers['Accept-Ranges'] = 'bytes';
		const rangeHeader = req.headers.range;
		let range = rangeHeader === undefined ? undefined : parseRange(rangeHeader, file.size);
		if (range === 'unsatisfiable') {
			return xml(s, 416, 'InvalidRange', 'The requested range is not satisfiable', {
				'Content-Range': `bytes */${file.size}`,
			});
		}
		// If-Range naming another version: the whole current object (RFC 9110, as S3), unless ignored.
		const ifRange = req.headers['if-range'] as string | undefined;
		if (range && !bytes.ignoreIfRange && !ifRangeMatches(ifRange, current)) range = undefined;
		const ignored =
			range && range.start > 0 && s.target === 'storage' && faults.field.takeIgnoredRange();
		if (range && range.start > 0 && s.target === 'storage') rangedFault = faults.takeRangedFault();
		if (rangedFault?.fault === 'ignoreRange') range = undefined;
		if (range && rangedFault?.fault === 'wrongContentRange') {
			const shift = Math.min(4096, file.size - range.end);
			range =
				shift > 0
					? { start: range.start + shift, end: range.end + shift }
					: { start: range.start - 1, end: range.end - 1 };
		}
		const misplaced =
			s.target === 'storage' ? faults.field.takeMisplacedRange(range ? range.start : 0) : undefined;
		if (misplaced !== undefined) {
			if (range) end = range.end;
			start = Math.min(end - 1, (range ? range.start : 0) + misplaced);
			status = 206;
			headers['Content-Range'] = `bytes ${start}-${end - 1}/${file.size}`;
		} else if (range && !ignored) {
			start = range.start;
			end = range.end;
			status = 206;
			headers['Content-Range'] = `bytes ${start}-${end - 1}/${file.size}`;
		}
	}
	if (file.contentType !== null) headers['Content-Type'] = file.contentType;
	const disposition = headerDisposition(file);
	if (disposition !== undefined) headers['Content-Disposition'] = disposition;
	const raw = s.target === 'storage' ? faults.field.takeDisposition() : undefined;
	if (raw !== undefined)
		headers['Content-Disposition'] = Buffer.from(raw, 'utf8').toString('latin1');

	let length = end - start;
	let limit = length;
	let closeAfter = false;
	if (s.target === 'storage') {
		const wrong = faults.takeWrongLength();
		if (wrong !== undefined) {
			length = Math.max(0, length + wrong);
			limit = Math.min(limit, length);
			closeAfter = true;
		}
		const extra = faults.takeExtraBytes();
		if (extra !== undefined) {
			length += extra;
			limit += extra;
			closeAfter = true;
		}
		const cut = faults.takeCut();
		if (cut !== undefined) {
			limit = Math.min(limit, cut);
			closeAfter = true;
		}
		if (afterBytes !== undefined) {
			limit = Math.min(limit, afterBytes);
			closeAfter = true;
		}
		if (rangedFault?.fault === 'cut') {
			limit = Math.min(limit, rangedFault.afterBytes ?? Math.floor(length / 2));
			closeAfter = true;
		}
		const claimed = bytes.takeClaimedSize();
		if (claimed !== undefined) {
			// A size that lies: the headers state `claimed` bytes, the body is the true file's, then the connection closes.
			if (status === 206) headers['Content-Range'] = `bytes ${start}-${claimed - 1}/${claimed}`;
			length = claimed - start;
			closeAfter = true;
		}
	}
	headers['Content-Length'] = String(length);
	if (closeAfter) headers.Connection = 'close';
	entry.status = status;
	res.writeHead(status, headers);
	if (req.method === 'HEAD') {
		res.end();
		return;
	}
	const complete = await pump(
		res,
		versionedId(video.id, version),
		start,
		limit,
		faults.slowBytesPerSecond,
		s.target === 'storage' ? faults.wan : undefined,
		s.target === 'storage' ? bytes.takeStall() : undefined,
	);
	if (!complete) return;
	if (limit < length) {
		// The body stops before its Content-Length: let the bytes already written flush, then drop the connection.
		res.socket?.end();
		setTimeout(() => res.socket?.destroy(), 50).unref();
		return;
	}
	res.end();
}
