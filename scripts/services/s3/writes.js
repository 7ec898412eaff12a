'use strict';
// Koa middleware answering the S3 writes this server keeps itself (after the SigV4 check):
// PutObject and the multipart upload operations. Everything else (GET, HEAD, listings, deletes,
// CopyObject, V2-signed requests) goes on to s3rver.
const fs = require('node:fs');
const S3Error = require('s3rver/lib/models/error');
const { operationOf } = require('./operations');
const { receiveBody } = require('./body');
const multipart = require('./multipart');
const { completeUpload } = require('./complete');

async function putObject(ctx, store, { bucket, key }) {
	try {
		store.checkBucket(bucket);
	} catch (err) {
		await multipart.drain(ctx);
		throw err;
	}
	const temp = store.tempFile(bucket);
	const got = await receiveBody(ctx, temp);
	try {
		const versionId = await store.commit(bucket, key, temp, {
			etag: got.md5,
			metadata: { ...ctx.request.req.headers },
		});
		if (versionId) ctx.set('x-amz-version-id', versionId);
	} catch (err) {
		fs.rmSync(temp, { force: true });
		throw err;
	}
	ctx.set('ETag', `"${got.md5}"`);
	for (const name of ['x-amz-checksum-sha256', 'x-amz-checksum-crc32'])
		if (ctx.request.req.headers[name]) ctx.set(name, ctx.request.req.headers[name]);
	ctx.body = '';
}

/** @param {ReturnType<typeof multipart.uploadRegistry>} registry @param {ReturnType<import('./object-store').objectStore>} store */
function s3Writes(registry, store, settings = { checksums: 'verify' }) {
	return async function answerWrites(ctx, next) {
		if (!ctx.state.sigV4) return next();
		const req = ctx.request.req;
		const r = operationOf(req.method, req.url, req.headers);
		switch (r.op) {
			case 'PutObject':
				return putObject(ctx, store, r);
			case 'CreateMultipartUpload':
				store.checkBucket(r.bucket);
				return multipart.createUpload(ctx, registry, r, store, settings.checksums);
			case 'UploadPart':
				return multipart.uploadPart(ctx, registry, r);
			case 'CompleteMultipartUpload':
				return completeUpload(ctx, registry, store, r);
			case 'AbortMultipartUpload':
				return multipart.abortUpload(ctx, registry, r);
			case 'ListMultipartUploads':
				store.checkBucket(r.bucket);
				return multipart.listUploads(ctx, registry, r);
			case 'ListParts':
				return multipart.listParts(ctx, registry, r);
			default:
				return next();
		}
	};
}

module.exports = { s3Writes, S3Error };
