'use strict';
// S3's ListParts (GET /<bucket>/<key>?uploadId=...), which s3rver lacks and n8n's AWS S3 node
// calls between uploading the parts of a multipart upload and completing it. Reads the parts
// s3rver's own store keeps for the upload (`<part number>` and `<part number>.md5` files).
const fs = require('node:fs');
const path = require('node:path');
const S3Error = require('s3rver/lib/models/error');

const xmlEscape = (s) =>
	String(s).replace(
		/[<>&'"]/g,
		(c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c],
	);

/** @param {{ getResourcePath(bucket: string, key: undefined, resource: string): string }} store s3rver's store */
function listParts(store) {
	return async function listMultipartUploadParts(ctx, next) {
		const uploadId = ctx.query.uploadId;
		if (ctx.method !== 'GET' || typeof uploadId !== 'string') return next();
		const [, bucket, ...keyParts] = ctx.path.split('/').map(decodeURIComponent);
		const dir = path.join(
			store.getResourcePath(bucket, undefined, 'uploads'),
			path.basename(uploadId),
		);
		if (!fs.existsSync(path.join(dir, 'key')))
			throw new S3Error('NoSuchUpload', 'The specified upload does not exist.', {
				UploadId: uploadId,
			});
		const marker = Number(ctx.query['part-number-marker'] ?? 0);
		const max = Math.min(Number(ctx.query['max-parts'] ?? 1000) || 1000, 1000);
		const numbers = fs
			.readdirSync(dir)
			.filter((f) => /^\d+$/.test(f))
			.map(Number)
			.filter((n) => n > marker)
			.sort((a, b) => a - b);
		const shown = numbers.slice(0, max);
		const parts = shown.map((n) => {
			const stat = fs.statSync(path.join(dir, String(n)));
			const md5 = fs.readFileSync(path.join(dir, `${n}.md5`), 'utf8').trim();
			return `<Part><PartNumber>${n}</PartNumber><LastModified>${stat.mtime.toISOString()}</LastModified><ETag>&quot;${md5}&quot;</ETag><Size>${stat.size}</Size></Part>`;
		});
		ctx.type = 'application/xml';
		ctx.body = [
			'<?xml version="1.0" encoding="UTF-8"?>',
			'<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
			`<Bucket>${xmlEscape(bucket)}</Bucket><Key>${xmlEscape(keyParts.join('/'))}</Key><UploadId>${xmlEscape(uploadId)}</UploadId>`,
			`<PartNumberMarker>${marker}</PartNumberMarker><NextPartNumberMarker>${shown.at(-1) ?? marker}</NextPartNumberMarker>`,
			`<MaxParts>${max}</MaxParts><IsTruncated>${numbers.length > shown.length}</IsTruncated>`,
			...parts,
			'</ListPartsResult>',
		].join('');
	};
}

module.exports = { listParts };
