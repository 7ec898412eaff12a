'use strict';
// A local S3-compatible server for the demo, the e2e suites and the storage-chain benchmark:
// s3rver (a dev dependency from the npm registry) speaks the S3 REST protocol over HTTP and
// supports multipart upload, which n8n's AWS S3 node uses for every stored file; s3rver does not
// verify V4 signatures, so scripts/s3/verify-sigv4.js does, in front of its own middleware
// (a wrong secret gets 403 SignatureDoesNotMatch). Objects land in `directory` as plain files.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { verifySigV4 } = require('./s3/verify-sigv4');
const { listParts } = require('./s3/list-parts');

/** Fixed, public test credentials of the local server (s3rver's own defaults). */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';
const REGION = 'us-east-1';

/**
 * Starts the server on 127.0.0.1 (port 0 = any free port) with the given buckets created.
 * Resolves to { endpoint, port, region, accessKeyId, secretAccessKey, directory, close() }.
 */
async function startS3Server({ directory, buckets = ['gridbank-masters'], port = 0 } = {}) {
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
	// Koa composes its middleware on listen: these run before any of s3rver's, the signature
	// check first; ListParts (n8n's AWS S3 node needs it) is the one S3 call s3rver lacks.
	// Large signed bodies are spooled to check their hash: a folder of this server's own (a shared
	// /tmp folder made by another user, root's say, is not writable by the next).
	const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridbank-s3-spool-'));
	server.middleware.unshift(
		verifySigV4({ keys: new Map([[ACCESS_KEY_ID, SECRET_ACCESS_KEY]]), spoolDir }),
		listParts(server.store),
	);
	const address = await server.run();
	return {
		endpoint: `http://127.0.0.1:${address.port}`,
		port: address.port,
		region: REGION,
		accessKeyId: ACCESS_KEY_ID,
		secretAccessKey: SECRET_ACCESS_KEY,
		directory: path.resolve(directory),
		close: async () => {
			await server.close();
			fs.rmSync(spoolDir, { recursive: true, force: true });
		},
	};
}

module.exports = { startS3Server, ACCESS_KEY_ID, SECRET_ACCESS_KEY, REGION };

if (require.main === module) {
	const directory = process.argv[2] || path.join(__dirname, '..', '.cache', 's3');
	const port = Number(process.argv[3] || 0);
	startS3Server({ directory, port }).then((s3) => {
		console.log(
			`S3-compatible server at ${s3.endpoint} (key ${s3.accessKeyId}), objects in ${s3.directory}`,
		);
	});
}
