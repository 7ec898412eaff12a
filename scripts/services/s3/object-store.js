'use strict';
// Where whole objects land: s3rver's own file layout (`<bucket>/<key>._S3rver_object` beside its
// `.md5` and metadata), so s3rver keeps serving GET, HEAD, listings and deletes of them. Objects
// written here (PutObject, CompleteMultipartUpload) are first written whole to a temporary file
// in the bucket's folder (a name s3rver's listings skip), then renamed onto the key: a reader
// sees the old object or the new one, never a partial or mixed one, as S3 promises.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const S3Error = require('s3rver/lib/models/error');

/**
 * @param {object} s3rverStore s3rver's FilesystemStore
 * @param {true | string[] | undefined} versioning buckets that issue x-amz-version-id (true: all)
 */
function objectStore(s3rverStore, versioning) {
	const versions = new Map(); // `${bucket}\n${key}` -> version id of the current object
	const isVersioned = (bucket) =>
		versioning === true || (Array.isArray(versioning) && versioning.includes(bucket));
	return {
		isVersioned,
		/** Throws 404 NoSuchBucket unless the bucket exists. */
		checkBucket(bucket) {
			const dir = s3rverStore.getBucketPath(bucket);
			if (!bucket || !fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
				throw new S3Error('NoSuchBucket', 'The specified bucket does not exist', {
					BucketName: bucket,
				});
		},
		/** A fresh temporary file name in the bucket's folder (same file system as its objects). */
		tempFile(bucket) {
			return path.join(s3rverStore.getBucketPath(bucket), `.incoming-${crypto.randomUUID()}`);
		},
		/** Puts `file` under the key at once; resolves to the new version id (or undefined). */
		async commit(bucket, key, file, { etag, metadata }) {
			const objectPath = s3rverStore.getResourcePath(bucket, key, 'object');
			fs.mkdirSync(path.dirname(objectPath), { recursive: true });
			await s3rverStore.putMetadata(bucket, key, metadata, etag);
			fs.renameSync(file, objectPath);
			if (!isVersioned(bucket)) return undefined;
			const versionId = crypto.randomBytes(16).toString('base64url');
			versions.set(`${bucket}\n${key}`, versionId);
			return versionId;
		},
		versionOf: (bucket, key) => versions.get(`${bucket}\n${key}`),
	};
}

/** Koa middleware: HEAD and GET of an object in a versioned bucket carry its x-amz-version-id. */
function versionHeaders(store, operationOf) {
	return async function addVersionId(ctx, next) {
		await next();
		const req = ctx.request.req;
		const { op, bucket, key } = operationOf(req.method, req.url, req.headers);
		if ((op !== 'HeadObject' && op !== 'GetObject') || ctx.status >= 300) return;
		const versionId = store.isVersioned(bucket) && store.versionOf(bucket, key);
		if (versionId) ctx.set('x-amz-version-id', versionId);
	};
}

module.exports = { objectStore, versionHeaders };
