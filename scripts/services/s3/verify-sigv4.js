'use strict';
// Koa middleware put in front of s3rver's own: s3rver checks V2 signatures but accepts any V4
// signature ("calculation is unimplemented"), so a wrong secret would pass. This verifies every
// V4 request (Authorization header or presigned X-Amz-* query) as S3 does and refuses with S3's
// XML errors; it also refuses anonymous requests (the buckets are private) and checks a body
// against its signed x-amz-content-sha256. Expiry and clock skew stay s3rver's checks.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Readable } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const S3Error = require('s3rver/lib/models/error');
const { ALGORITHM, signature, sameSignature, sha256Hex } = require('./sigv4');

/** Bodies up to this size are checked in memory; larger ones are spooled to a temp file. */
const IN_MEMORY_BODY = 8 * 1024 * 1024;
const EMPTY_SHA256 = sha256Hex('');

function malformed(message) {
	return new S3Error('AuthorizationHeaderMalformed', message);
}

/** Credential, signed headers, signature, date and payload hash of a V4 request, or null if it is not V4. */
function parseV4(req, query) {
	const auth = req.headers.authorization;
	if (auth?.startsWith(`${ALGORITHM} `)) {
		if (!req.headers['x-amz-content-sha256'])
			throw new S3Error(
				'InvalidRequest',
				'Missing required header for this request: x-amz-content-sha256',
			);
		const fields = Object.fromEntries(
			auth
				.slice(ALGORITHM.length + 1)
				.split(',')
				.map((f) => f.trim().split(/=(.*)/s).slice(0, 2)),
		);
		if (!fields.Credential || !fields.SignedHeaders || !fields.Signature)
			throw malformed('The authorization header requires Credential, SignedHeaders and Signature.');
		return {
			credential: fields.Credential,
			signedHeaders: fields.SignedHeaders,
			provided: fields.Signature,
			amzDate: req.headers['x-amz-date'] ?? '',
			payloadHash: req.headers['x-amz-content-sha256'] ?? '',
		};
	}
	if (query.get('X-Amz-Algorithm') === ALGORITHM)
		return {
			credential: query.get('X-Amz-Credential') ?? '',
			signedHeaders: query.get('X-Amz-SignedHeaders') ?? '',
			provided: query.get('X-Amz-Signature') ?? '',
			amzDate: query.get('X-Amz-Date') ?? '',
			payloadHash: req.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD',
		};
	return null;
}

/** The body, checked against its signed SHA-256, as a fresh stream for s3rver (the original is consumed). */
async function verifiedBody(ctx, expected, spoolDir) {
	const length = Number(ctx.get('content-length') || 0);
	const chunked = /chunked/i.test(ctx.get('transfer-encoding'));
	if (!chunked && length === 0) return expected === EMPTY_SHA256 ? null : mismatch(EMPTY_SHA256);
	const hash = crypto.createHash('sha256');
	if (!chunked && length <= IN_MEMORY_BODY) {
		const chunks = [];
		for await (const chunk of ctx.req) (hash.update(chunk), chunks.push(chunk));
		const actual = hash.digest('hex');
		if (actual !== expected) return mismatch(actual);
		return { stream: Readable.from([Buffer.concat(chunks)]), cleanup: () => {} };
	}
	fs.mkdirSync(spoolDir, { recursive: true });
	const file = path.join(spoolDir, `body-${crypto.randomUUID()}`);
	const cleanup = () => fs.rmSync(file, { force: true });
	try {
		await pipeline(
			ctx.req,
			async function* (source) {
				for await (const chunk of source) (hash.update(chunk), yield chunk);
			},
			fs.createWriteStream(file),
		);
		const actual = hash.digest('hex');
		if (actual !== expected) return mismatch(actual);
	} catch (err) {
		cleanup();
		throw err;
	}
	return { stream: fs.createReadStream(file), cleanup };

	function mismatch(actual) {
		const err = new S3Error(
			'XAmzContentSHA256Mismatch',
			"The provided 'x-amz-content-sha256' header does not match what was computed.",
			{ ClientComputedContentSHA256: expected, S3ComputedContentSHA256: actual },
		);
		err.status = 400;
		throw err;
	}
}

/** @param {{ keys: Map<string, string>, spoolDir: string }} options access key id -> secret; a folder of the server's own for large bodies */
function verifySigV4({ keys, spoolDir }) {
	return async function verifySignatureV4(ctx, next) {
		const req = ctx.request.req; // the socket's request (ctx.req may be a body stream by now)
		const [rawPath, rawQuery = ''] = req.url.split(/\?(.*)/s);
		const query = new URLSearchParams(rawQuery);
		const v4 = parseV4(req, query);
		if (!v4) {
			if (ctx.get('authorization') || query.has('Signature')) return next(); // V2: s3rver verifies it
			throw new S3Error('AccessDenied', 'Access Denied: this server accepts signed requests only.');
		}
		const [accessKeyId, ...scopeParts] = v4.credential.split('/');
		const scope = scopeParts.join('/');
		if (
			scopeParts.length !== 4 ||
			scopeParts[2] !== 's3' || // S3 refuses a signature scoped to another service
			scopeParts[3] !== 'aws4_request' ||
			!/^\d{8}T\d{6}Z$/.test(v4.amzDate) ||
			!v4.amzDate.startsWith(scopeParts[0])
		)
			throw malformed(`The credential scope '${scope}' or the date '${v4.amzDate}' is malformed.`);
		const secretAccessKey = keys.get(accessKeyId);
		if (secretAccessKey === undefined)
			throw new S3Error(
				'InvalidAccessKeyId',
				'The AWS Access Key Id you provided does not exist in our records.',
				{ AWSAccessKeyId: accessKeyId },
			);
		const signedHeaders = v4.signedHeaders.toLowerCase().split(';');
		if (!signedHeaders.includes('host')) throw malformed("The signed headers must include 'host'.");
		if (/^STREAMING-/.test(v4.payloadHash))
			throw new S3Error(
				'NotImplemented',
				`Payload signing '${v4.payloadHash}' (aws-chunked) is not supported by this local server.`,
			);
		const computed = signature({
			method: ctx.method,
			rawPath,
			rawQuery,
			headers: req.headers,
			signedHeaders,
			payloadHash: v4.payloadHash,
			amzDate: v4.amzDate,
			scope,
			secretAccessKey,
		});
		if (!sameSignature(computed.signature, v4.provided))
			throw new S3Error(
				'SignatureDoesNotMatch',
				'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
				{
					AWSAccessKeyId: accessKeyId,
					StringToSign: computed.stringToSign,
					CanonicalRequest: computed.canonicalRequest,
				},
			);
		ctx.state.sigV4 = true; // writes.js answers only verified requests
		if (!/^[0-9a-f]{64}$/.test(v4.payloadHash)) return next(); // UNSIGNED-PAYLOAD
		const body = await verifiedBody(ctx, v4.payloadHash, spoolDir);
		if (!body) return next();
		ctx.req = body.stream; // the handlers after this read the body from ctx.req
		try {
			await next();
		} finally {
			body.cleanup();
		}
	};
}

module.exports = { verifySigV4 };
