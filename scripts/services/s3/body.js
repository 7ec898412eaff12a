'use strict';
// Receives a PutObject or UploadPart body into a file while hashing it, and checks it as S3 does:
// all of Content-Length arrived, Content-MD5 (400 InvalidDigest if malformed, 400 BadDigest if it
// differs), x-amz-checksum-sha256 / -crc32 where sent (400 InvalidRequest if malformed, 400
// BadDigest if it differs). A body that fails any check leaves no file behind.
const crypto = require('node:crypto');
const fs = require('node:fs');
const zlib = require('node:zlib');
const { pipeline } = require('node:stream/promises');
const S3Error = require('s3rver/lib/models/error');

const WRITE_BUFFER = 4 * 1024 * 1024;
const CHECKSUMS = { 'x-amz-checksum-sha256': 32, 'x-amz-checksum-crc32': 4 };

/** Decoded base64 of exactly `bytes` bytes, or null. */
function base64Of(value, bytes) {
	if (typeof value !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
	const raw = Buffer.from(value, 'base64');
	return raw.length === bytes && raw.toString('base64') === value ? raw : null;
}

/** Checks the headers that must be well-formed before the body is read. */
function checkDigestHeaders(headers) {
	const md5 = headers['content-md5'];
	if (md5 !== undefined && !base64Of(md5, 16))
		throw new S3Error('InvalidDigest', 'The Content-MD5 you specified was invalid.');
	for (const [name, bytes] of Object.entries(CHECKSUMS))
		if (headers[name] !== undefined && !base64Of(headers[name], bytes))
			throw new S3Error('InvalidRequest', `Value for ${name} header is invalid.`);
}

/**
 * Writes the body of `ctx` to `file` (or into it from byte `start`: a part's place in an upload's
 * assembly file, assembly.js). Resolves to { size, md5 (hex), sha256 and crc32 (base64, only when
 * the request carries that checksum: the server spends no CPU on hashes nobody asked for) }.
 * @param {import('koa').Context} ctx
 */
async function receiveBody(ctx, file, { start } = {}) {
	const headers = ctx.request.req.headers;
	checkDigestHeaders(headers);
	const md5 = crypto.createHash('md5');
	const sha256 = headers['x-amz-checksum-sha256'] && crypto.createHash('sha256');
	const crcAsked = headers['x-amz-checksum-crc32'] !== undefined;
	let crc = 0;
	let size = 0;
	try {
		await pipeline(
			ctx.req,
			async function* (source) {
				for await (const chunk of source) {
					md5.update(chunk);
					if (sha256) sha256.update(chunk);
					if (crcAsked) crc = zlib.crc32(chunk, crc);
					size += chunk.length;
					yield chunk;
				}
			},
			// A write stream's default 16 KiB buffer makes every 64 KiB chunk wait for its own write
			// (a thread-pool round trip) before the socket is read again: on a loaded machine that
			// held 4 parallel parts to ~40 MB/s. A larger buffer lets chunks pile up and go in one writev.
			fs.createWriteStream(file, {
				highWaterMark: WRITE_BUFFER,
				...(start === undefined ? {} : { flags: 'r+', start }),
			}),
		);
		const expected = headers['content-length'];
		if (expected !== undefined && Number(expected) !== size)
			throw new S3Error(
				'IncompleteBody',
				'You did not provide the number of bytes specified by the Content-Length HTTP header.',
			);
		const got = {
			size,
			md5: md5.digest('hex'),
			sha256: sha256 ? sha256.digest('base64') : undefined,
			crc32: Buffer.from([crc >>> 24, (crc >>> 16) & 255, (crc >>> 8) & 255, crc & 255]).toString(
				'base64',
			),
		};
		if (
			headers['content-md5'] !== undefined &&
			headers['content-md5'] !== Buffer.from(got.md5, 'hex').toString('base64')
		)
			throw new S3Error(
				'BadDigest',
				'The Content-MD5 you specified did not match what we received.',
			);
		if (
			headers['x-amz-checksum-sha256'] !== undefined &&
			headers['x-amz-checksum-sha256'] !== got.sha256
		)
			throw new S3Error(
				'BadDigest',
				'The SHA256 you specified did not match the calculated checksum.',
			);
		if (
			headers['x-amz-checksum-crc32'] !== undefined &&
			headers['x-amz-checksum-crc32'] !== got.crc32
		)
			throw new S3Error(
				'BadDigest',
				'The CRC32 you specified did not match the calculated checksum.',
			);
		return got;
	} catch (err) {
		// A part's place in an assembly is left as it is (assembly.js marks it as not holding the part).
		if (start === undefined) fs.rmSync(file, { force: true });
		throw err;
	}
}

module.exports = { receiveBody, checkDigestHeaders };
