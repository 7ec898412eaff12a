'use strict';
// S3's multipart upload, kept by this server (s3rver's own lacks abort, listing uploads, ETag and
// part-size checks, and accepts parts for uploads that do not exist): CreateMultipartUpload,
// UploadPart (Content-MD5 and checksum headers checked, see body.js), AbortMultipartUpload,
// ListMultipartUploads and ListParts; CompleteMultipartUpload is complete.js. Parts are files in
// a folder of the server's own; an upload is gone (404 NoSuchUpload) once aborted or completed.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const S3Error = require('s3rver/lib/models/error');
const { receiveBody } = require('./body');
const assembly = require('./assembly');
const { xmlEscape } = require('./operations');

const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

/** The uploads in progress: uploadId -> { bucket, key, initiated, metadata, dir, parts: Map }. */
function uploadRegistry(spoolDir) {
	const uploads = new Map();
	return {
		uploads,
		/** `assemblyFile`: where parts are written in place (assembly.js), in the bucket's folder. */
		create(bucket, key, metadata, assemblyFile) {
			const uploadId = crypto.randomBytes(24).toString('base64url');
			const dir = path.join(spoolDir, 'uploads', uploadId);
			fs.mkdirSync(dir, { recursive: true });
			uploads.set(uploadId, {
				bucket,
				key,
				initiated: new Date(),
				metadata,
				dir,
				parts: new Map(),
				layout: assemblyFile ? assembly.createLayout(assemblyFile) : undefined,
			});
			return uploadId;
		},
		/** The upload, or 404 NoSuchUpload (also for another bucket or key than it was made for). */
		get(uploadId, bucket, key) {
			const upload = typeof uploadId === 'string' ? uploads.get(uploadId) : undefined;
			if (!upload || upload.bucket !== bucket || upload.key !== key)
				throw new S3Error(
					'NoSuchUpload',
					'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
					{ UploadId: uploadId },
				);
			return upload;
		},
		remove(uploadId) {
			const upload = uploads.get(uploadId);
			uploads.delete(uploadId);
			if (upload) fs.rmSync(upload.dir, { recursive: true, force: true });
			// Gone already when Complete put it under the key.
			if (upload?.layout) fs.rmSync(upload.layout.file, { force: true });
		},
		/** [{ key, uploadId }] of the bucket's uploads neither completed nor aborted. */
		list(bucket, prefix = '') {
			return [...uploads]
				.filter(([, u]) => u.bucket === bucket && u.key.startsWith(prefix))
				.map(([uploadId, u]) => ({ key: u.key, uploadId, initiated: u.initiated }))
				.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.initiated - b.initiated));
		},
	};
}

/** Reads and drops a request body (so an early error answer reaches a client still sending). */
async function drain(ctx) {
	for await (const chunk of ctx.req) void chunk;
}

const xmlAnswer = (ctx, body) => {
	ctx.type = 'application/xml';
	ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
};

/** The part checksums this server can check, by `x-amz-checksum-algorithm` value. */
const ALGORITHMS = { SHA256: 'x-amz-checksum-sha256', CRC32: 'x-amz-checksum-crc32' };

/**
 * As S3: `x-amz-checksum-algorithm` (SHA256 or CRC32 here; another is 400 InvalidArgument) is
 * echoed and kept, and every part must then carry that checksum; with `checksums: 'ignore'`
 * (a store that does not know the header) it is neither echoed nor kept.
 */
function createUpload(ctx, registry, { bucket, key }, store, checksums = 'verify') {
	const metadata = { ...ctx.request.req.headers };
	const asked = ctx.request.req.headers['x-amz-checksum-algorithm'];
	const algorithm = checksums === 'verify' && asked ? String(asked).toUpperCase() : undefined;
	if (algorithm && !ALGORITHMS[algorithm])
		throw new S3Error('InvalidArgument', `Checksum algorithm ${asked} is not supported here.`);
	const uploadId = registry.create(bucket, key, metadata, store?.tempFile(bucket));
	if (algorithm) {
		registry.uploads.get(uploadId).checksumAlgorithm = algorithm;
		ctx.set('x-amz-checksum-algorithm', algorithm);
	}
	xmlAnswer(
		ctx,
		`<InitiateMultipartUploadResult xmlns="${NS}"><Bucket>${xmlEscape(bucket)}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
	);
}

async function uploadPart(ctx, registry, { bucket, key, uploadId, partNumber }) {
	let upload;
	try {
		if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10000)
			throw new S3Error(
				'InvalidArgument',
				'Part number must be an integer between 1 and 10000, inclusive',
			);
		upload = registry.get(uploadId, bucket, key);
		const wanted = ALGORITHMS[upload.checksumAlgorithm];
		if (wanted && ctx.request.req.headers[wanted] === undefined)
			throw new S3Error(
				'InvalidRequest',
				`The upload was created with the ${upload.checksumAlgorithm} checksum algorithm: the part must carry ${wanted}.`,
			);
	} catch (err) {
		await drain(ctx);
		throw err;
	}
	const headers = ctx.request.req.headers;
	const length = /chunked/i.test(headers['transfer-encoding'] ?? '')
		? undefined
		: Number(headers['content-length']);
	const slot = assembly.place(upload.layout, partNumber, length);
	const sizeOf = (n) => upload.parts.get(n)?.size;
	assembly.advance(upload.layout, sizeOf);
	const temp = slot
		? upload.layout.file
		: path.join(upload.dir, `.incoming-${crypto.randomUUID()}`);
	let got;
	try {
		got = await receiveBody(ctx, temp, slot ? { start: slot.offset } : {});
	} finally {
		if (slot) assembly.settle(slot, got !== undefined && registry.uploads.has(uploadId));
	}
	if (!registry.uploads.has(uploadId)) {
		if (!slot) fs.rmSync(temp, { force: true }); // aborted meanwhile
		throw new S3Error('NoSuchUpload', 'The specified upload does not exist.', {
			UploadId: uploadId,
		});
	}
	const own = path.join(upload.dir, String(partNumber));
	if (slot) fs.rmSync(own, { force: true });
	else {
		fs.renameSync(temp, own);
		assembly.release(upload.layout, partNumber);
	}
	// Where the part's bytes are: its own file, or its place in the assembly.
	const source = slot
		? { file: temp, start: slot.offset, size: got.size }
		: { file: own, start: 0, size: got.size };
	upload.parts.set(partNumber, { ...got, file: own, source, lastModified: new Date() });
	if (!slot) assembly.advance(upload.layout, sizeOf);
	ctx.set('ETag', `"${got.md5}"`);
	for (const name of ['x-amz-checksum-sha256', 'x-amz-checksum-crc32'])
		if (ctx.request.req.headers[name]) ctx.set(name, ctx.request.req.headers[name]);
	ctx.body = '';
}

function abortUpload(ctx, registry, { bucket, key, uploadId }) {
	registry.get(uploadId, bucket, key);
	registry.remove(uploadId);
	ctx.status = 204;
}

function listUploads(ctx, registry, { bucket }) {
	const prefix = ctx.query.prefix ?? '';
	const uploads = registry.list(bucket, typeof prefix === 'string' ? prefix : '');
	xmlAnswer(
		ctx,
		[
			`<ListMultipartUploadsResult xmlns="${NS}"><Bucket>${xmlEscape(bucket)}</Bucket>`,
			`<KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker><Prefix>${xmlEscape(prefix)}</Prefix>`,
			`<MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>`,
			...uploads.map(
				(u) =>
					`<Upload><Key>${xmlEscape(u.key)}</Key><UploadId>${u.uploadId}</UploadId><StorageClass>STANDARD</StorageClass><Initiated>${u.initiated.toISOString()}</Initiated></Upload>`,
			),
			'</ListMultipartUploadsResult>',
		].join(''),
	);
}

function listParts(ctx, registry, { bucket, key, uploadId }) {
	const upload = registry.get(uploadId, bucket, key);
	const marker = Number(ctx.query['part-number-marker'] ?? 0) || 0;
	const max = Math.min(Number(ctx.query['max-parts'] ?? 1000) || 1000, 1000);
	const numbers = [...upload.parts.keys()].filter((n) => n > marker).sort((a, b) => a - b);
	const shown = numbers.slice(0, max);
	xmlAnswer(
		ctx,
		[
			`<ListPartsResult xmlns="${NS}"><Bucket>${xmlEscape(bucket)}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId>`,
			`<PartNumberMarker>${marker}</PartNumberMarker><NextPartNumberMarker>${shown.at(-1) ?? marker}</NextPartNumberMarker>`,
			`<MaxParts>${max}</MaxParts><IsTruncated>${numbers.length > shown.length}</IsTruncated>`,
			...shown.map((n) => {
				const p = upload.parts.get(n);
				return `<Part><PartNumber>${n}</PartNumber><LastModified>${p.lastModified.toISOString()}</LastModified><ETag>&quot;${p.md5}&quot;</ETag><Size>${p.size}</Size></Part>`;
			}),
			'</ListPartsResult>',
		].join(''),
	);
}

module.exports = {
	uploadRegistry,
	createUpload,
	uploadPart,
	abortUpload,
	listUploads,
	listParts,
	drain,
	xmlAnswer,
	NS,
};
