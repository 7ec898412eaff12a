'use strict';
// The services the example workflows' job needs besides GridBank, run locally for the demo and
// the e2e suites: the S3-compatible server (scripts/services/s3-server.js) with the examples' bucket, the
// Slack stand-in (scripts/services/slack-standin.js, reached by n8n's own Slack node through a proxy),
// and the n8n credentials the examples reference (their ids and names), pointing at them.
const path = require('node:path');
const { startS3Server } = require('./s3-server');
const { deleteObject, listObjects, objectSha256 } = require('./s3/client');
const { startSlackStandIn, DEFAULT_TOKEN } = require('./slack-standin');

/** The bucket the examples' Settings name, and their key prefix. */
const BUCKET = 'gridbank-masters';
/** The enterprise example's bucket for n8n's AWS S3 node: with a dot, which that node needs to use a custom endpoint. */
const AWS_BUCKET = 'my-company.gridbank-originals';
const KEY_PREFIX = 'gridbank';
/** The Enterprise Trigger example's bucket and key prefix (its Settings). */
const FOOTAGE_BUCKET = 'gridbank-footage';
const FOOTAGE_PREFIX = 'gridbank'; // Copy to Storage's default key: gridbank/<video id>/<file name>

/** n8n's S3 credential (the "S3" type: any S3-compatible endpoint) the examples reference. */
function s3Credential(s3) {
	return {
		id: 'gbS3CredLocal',
		name: 'S3 account',
		type: 's3',
		data: {
			endpoint: s3.endpoint,
			region: s3.region,
			accessKeyId: s3.accessKeyId,
			secretAccessKey: s3.secretAccessKey,
			forcePathStyle: true,
			ignoreSSLIssues: false,
		},
	};
}

/** n8n's AWS credential with a custom S3 endpoint, for the AWS S3 node of the enterprise example. */
function awsCredential(s3) {
	return {
		id: 'gbAwsCredLocal',
		name: 'AWS account',
		type: 'aws',
		data: {
			region: s3.region,
			accessKeyId: s3.accessKeyId,
			secretAccessKey: s3.secretAccessKey,
			customEndpoints: true,
			s3Endpoint: s3.endpoint,
		},
	};
}

/** The package's own storage credential (Copy to Storage) the examples reference: the local server, path-style. */
function storageCredential(s3) {
	return {
		id: 'gbStorageCredLocal',
		name: 'GridBank storage account',
		type: 'gridBankS3StorageApi',
		data: {
			endpoint: s3.endpoint,
			region: s3.region,
			accessKeyId: s3.accessKeyId,
			secretAccessKey: s3.secretAccessKey,
			addressing: 'path',
			testBucket: BUCKET,
		},
	};
}

/** n8n's Slack credential the examples reference, with the token the stand-in accepts. */
function slackCredential() {
	return {
		id: 'gbSlackCredDemo',
		name: 'Slack account',
		type: 'slackApi',
		data: { accessToken: DEFAULT_TOKEN },
	};
}

/** Where an example stores a GridBank master: `gridbank/<video key>/<file name>`. */
const objectKey = (videoKey, fileName) => `${KEY_PREFIX}/${videoKey}/${fileName}`;

/**
 * Starts the S3 server on `s3Port` (0: any) with its objects in `<dir>/s3`, and the Slack
 * stand-in with its local CA in `<dir>/slack`. Returns { s3, slack, n8nEnv, credentials,
 * objects(prefix), object(key), removeObjects(prefix), close() }: every n8n process of a run needs `n8nEnv` (the proxy
 * and CA through which its Slack node reaches the stand-in).
 */
async function startJobServices({ dir, s3Port = 0 }) {
	const s3 = await startS3Server({
		directory: path.join(dir, 's3'),
		buckets: [BUCKET, AWS_BUCKET, FOOTAGE_BUCKET],
		port: s3Port,
	});
	const slack = await startSlackStandIn({ dir: path.join(dir, 'slack') });
	return {
		s3,
		slack,
		n8nEnv: slack.n8nEnv,
		credentials: [s3Credential(s3), awsCredential(s3), storageCredential(s3), slackCredential()],
		/** Every object in `bucket` under `prefix`: [{ key, size }]. */
		objects: (prefix = `${KEY_PREFIX}/`, bucket = BUCKET) => listObjects(s3, bucket, prefix),
		/** An object's { sha256, size }, read back through the S3 API. */
		object: (key, bucket = BUCKET) => objectSha256(s3, bucket, key),
		/** Deletes every object in `bucket` under `prefix` (a test that needs the keys free). */
		removeObjects: async (prefix, bucket = BUCKET) => {
			for (const { key } of await listObjects(s3, bucket, prefix))
				await deleteObject(s3, bucket, key);
		},
		close: () => Promise.all([s3.close(), slack.close()]),
	};
}

module.exports = {
	BUCKET,
	AWS_BUCKET,
	KEY_PREFIX,
	FOOTAGE_BUCKET,
	FOOTAGE_PREFIX,
	objectKey,
	s3Credential,
	awsCredential,
	storageCredential,
	slackCredential,
	startJobServices,
};
