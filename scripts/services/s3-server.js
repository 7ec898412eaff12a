'use strict';
// A local S3-compatible server for the tests, the demo and the storage-chain benchmark. s3rver (a
// dev dependency from the npm registry) speaks S3's REST protocol and keeps objects as plain files
// (GET, HEAD, listings, deletes); in front of it, our own middleware (scripts/services/s3/) does what
// s3rver lacks or does loosely and the copy to storage relies on: SigV4 verification
// (verify-sigv4.js), PutObject and the whole multipart upload with S3's checks (writes.js:
// Content-MD5 and checksums, EntityTooSmall, InvalidPart, NoSuchUpload, abort, ListMultipartUploads,
// ListParts; objects appear only whole; parts are written in place in the object-to-be, so
// Complete renames instead of copying, as a real store does not copy either: assembly.js), x-amz-version-id for versioned buckets, a request log
// and fault switches for the tests (faults.js). Why this and not another S3 server:
// CONTRIBUTING.md, "Local S3 server".
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { verifySigV4 } = require('./s3/verify-sigv4');
const { requestLog } = require('./s3/request-log');
const { createFaults } = require('./s3/faults');
const { uploadRegistry } = require('./s3/multipart');
const { objectStore, versionHeaders } = require('./s3/object-store');
const { s3Writes } = require('./s3/writes');
const { operationOf } = require('./s3/operations');

/** Fixed, public test credentials of the local server (s3rver's own defaults). */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';
const REGION = 'us-east-1';

/**
 * Starts the server on 127.0.0.1 (port 0 = any free port) with the given buckets created;
 * `versioning`: true (every bucket) or the names of the buckets that issue x-amz-version-id.
 * `checksums`: 'verify' (as S3: x-amz-checksum-algorithm kept, echoed and required of the parts)
 * or 'ignore' (a store that does not know that header); `setChecksums(mode)` changes it.
 * Resolves to { endpoint, port, region, accessKeyId, secretAccessKey, directory, close(),
 * faults, requests, listMultipartUploads(bucket), setChecksums(mode) }.
 */
async function startS3Server({
	directory,
	buckets = ['gridbank-masters'],
	port = 0,
	versioning,
	checksums = 'verify',
} = {}) {
	const S3rver = require('s3rver');
	fs.mkdirSync(directory, { recursive: true });
	const server = new S3rver({
		address: '127.0.0.1',
		port,
		directory,
		silent: true,
		allowMismatchedSignatures: false,
		configureBuckets: buckets.map((name) => ({ name })),
	});
	// Koa composes its middleware on listen: these run before any of s3rver's, in this order.
	// Large signed bodies and the parts of uploads are kept in a folder of this server's own (a
	// shared /tmp folder made by another user, root's say, is not writable by the next).
	const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridbank-s3-spool-'));
	const requests = [];
	const faults = createFaults();
	const registry = uploadRegistry(spoolDir);
	const store = objectStore(server.store, versioning);
	const settings = { checksums };
	server.middleware.unshift(
		requestLog(requests),
		faults.middleware(),
		verifySigV4({ keys: new Map([[ACCESS_KEY_ID, SECRET_ACCESS_KEY]]), spoolDir }),
		versionHeaders(store, operationOf),
		s3Writes(registry, store, settings),
	);
	const address = await server.run();
	return {
		endpoint: `http://127.0.0.1:${address.port}`,
		port: address.port,
		region: REGION,
		accessKeyId: ACCESS_KEY_ID,
		secretAccessKey: SECRET_ACCESS_KEY,
		directory: path.resolve(directory),
		faults: { add: faults.add.bind(faults), clear: faults.clear.bind(faults), hits: faults.hits },
		requests,
		setChecksums: (mode) => void (settings.checksums = mode),
		/** Uploads of `bucket` neither completed nor aborted: [{ key, uploadId }]. */
		listMultipartUploads: async (bucket) =>
			registry.list(bucket).map(({ key, uploadId }) => ({ key, uploadId })),
		close: async () => {
			await server.close();
			fs.rmSync(spoolDir, { recursive: true, force: true });
		},
	};
}

module.exports = { startS3Server, ACCESS_KEY_ID, SECRET_ACCESS_KEY, REGION };

if (require.main === module) {
	const directory = process.argv[2] || path.join(__dirname, '..', '..', '.cache', 's3');
	const port = Number(process.argv[3] || 0);
	startS3Server({ directory, port }).then((s3) => {
		console.log(
			`S3-compatible server at ${s3.endpoint} (key ${s3.accessKeyId}), objects in ${s3.directory}`,
		);
	});
}
