'use strict';
// Which S3 operation a request is, from its method, path and query, as S3's REST API routes them:
// the request log and the fault switches name requests by operation.

/** { op, bucket, key, partNumber, uploadId } of one request (`key` undefined for bucket requests). */
function operationOf(method, url, headers) {
	const [rawPath, rawQuery = ''] = url.split(/\?(.*)/s);
	const query = new URLSearchParams(rawQuery);
	const [, bucket = '', ...rest] = rawPath.split('/').map(safeDecode);
	const key = rest.length ? rest.join('/') : undefined;
	const uploadId = query.get('uploadId') ?? undefined;
	const partNumber = query.has('partNumber') ? Number(query.get('partNumber')) : undefined;
	return { op: name(), bucket, key, partNumber, uploadId };

	function name() {
		if (!bucket) return method === 'GET' ? 'ListBuckets' : `${method}Service`;
		if (key === undefined || key === '') {
			if (method === 'GET' && query.has('uploads')) return 'ListMultipartUploads';
			if (method === 'GET' && query.has('versioning')) return 'GetBucketVersioning';
			if (method === 'GET') return query.get('list-type') === '2' ? 'ListObjectsV2' : 'ListObjects';
			if (method === 'HEAD') return 'HeadBucket';
			if (method === 'PUT') return 'CreateBucket';
			if (method === 'DELETE') return 'DeleteBucket';
			return `${method}Bucket`;
		}
		if (method === 'POST' && query.has('uploads')) return 'CreateMultipartUpload';
		if (method === 'POST' && uploadId !== undefined) return 'CompleteMultipartUpload';
		if (method === 'PUT' && uploadId !== undefined) return 'UploadPart';
		if (method === 'DELETE' && uploadId !== undefined) return 'AbortMultipartUpload';
		if (method === 'GET' && uploadId !== undefined) return 'ListParts';
		if (method === 'PUT') return headers['x-amz-copy-source'] ? 'CopyObject' : 'PutObject';
		if (method === 'GET') return 'GetObject';
		if (method === 'HEAD') return 'HeadObject';
		if (method === 'DELETE') return 'DeleteObject';
		return `${method}Object`;
	}
}

function safeDecode(text) {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

const xmlEscape = (s) =>
	String(s).replace(
		/[<>&'"]/g,
		(c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c],
	);

/** An S3 XML error body. */
const errorXml = (code, message) =>
	`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${xmlEscape(code)}</Code><Message>${xmlEscape(message)}</Message></Error>`;

module.exports = { operationOf, xmlEscape, errorXml };
