/**
 * S3-style storage origin serving signed master-file URLs: signature and expiry checks
 * (403 XML), Range requests (206), the four Content-Disposition modes, and the download
 * faults (cut short, wrong Content-Length, bytes past the end, slow, refusal, redirect to a
 * third origin).
 * Bytes are written by storage-pump.ts in chunks with backpressure: memory stays flat for
 * multi-GB files.
 */
import { headerDisposition } from './disposition';
import { ifRangeMatches, validators, versionedId } from './byte-faults';
import { checksumHeaders } from './checksums';
import type { Engine } from './engine';
import { STATUS_TEXT } from './errors';
import { verifyUrl } from './signing';
import { parseRange } from './storage-range';
import { pump, sleep } from './storage-pump';
import { FAILURES, REFUSALS, xml, type StorageRequest } from './storage-refusals';
import type { RangedFault } from './types';

// Other simulator modules import these from here.
export { parseRange } from './storage-range';
export type { StorageRequest } from './storage-refusals';

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
		const part = /^bytes=(\d+)-/.exec(String(req.headers.range ?? ''));
		if (part && Number(part[1]) > 0 && faults.bytes.busyParts > 0) {
			faults.bytes.busyParts--;
			return xml(s, 503, 'SlowDown', 'Please reduce your request rate.', {
				'Retry-After': faults.bytes.busyRetryAfter,
			});
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
	// The content check a test asked for; a single-part ETag replaces the validator itself.
	const checks = bytes.checksum
		? checksumHeaders(bytes.checksum, versionedId(video.id, version), file.size)
		: {};
	if (checks.ETag && current.etag) current.etag = checks.ETag;
	delete checks.ETag;
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
	Object.assign(headers, checks);
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
	if (status === 206 && start > 0 && s.target === 'storage' && bytes.strippedParts > 0) {
		bytes.strippedParts--;
		delete headers.ETag;
		delete headers['Last-Modified'];
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
		entry,
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
