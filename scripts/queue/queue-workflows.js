'use strict';
/** The workflows and credentials the queue cluster runs, for `npm run test:queue` and the queue benchmark. */
const crypto = require('node:crypto');
const { demoCredentials } = require('../n8n/n8n-runtime');
const { node, PKG, workflow } = require('../n8n/workflow-builders');

const DOWNLOAD_WF = 'gbQueueDownload01';
const PACING_WF = 'gbQueuePacing0001';
const TRIGGER_WF = 'gbQueueTrigger001';
const COPY_WF = 'gbQueueCopy000001';
const DOWNLOAD_PATH = 'gb-queue-download';
const COPY_PATH = 'gb-queue-copy';
const PACING_PATH = 'gb-queue-pacing';

const cred = (id, name) => ({ gridBankPartnerApi: { id, name } });
const DEMO_CRED = cred('gbPartnerCredDemo', 'GridBank Partner account');
const PACING_CRED = cred('gbPartnerCredPace', 'GridBank Partner (pacing simulator)');

const webhook = (name, p) =>
	node(
		name,
		'n8n-nodes-base.webhook',
		{
			httpMethod: 'POST',
			path: p,
			responseMode: 'lastNode',
			responseData: 'firstEntryJson',
			options: {},
		},
		{ typeVersion: 2, webhookId: crypto.randomUUID() },
	);

/** POST {videoKey} starts one download on a worker; n8n answers with the node's output. */
function downloadWorkflow() {
	return workflow(
		DOWNLOAD_WF,
		'Queue: download one master',
		[
			webhook('Webhook', DOWNLOAD_PATH),
			node(
				'Download',
				`${PKG}.gridBankPartner`,
				{
					operation: 'getDownloadUrl',
					videoKey: '={{ $json.body.videoKey }}',
					download: true,
					binaryPropertyName: 'master',
				},
				{ credentials: DEMO_CRED },
			),
		],
		[['Webhook', 'Download']],
	);
}

/**
 * Many API calls on one key: list `n` licences, then a download URL for each (one request per
 * item). Started by webhook (runs on a worker) or by hand (runs on the main).
 */
function pacingWorkflow(n) {
	return workflow(
		PACING_WF,
		'Queue: many API calls on one key',
		[
			webhook('Webhook', PACING_PATH),
			node('Start', 'n8n-nodes-base.manualTrigger', {}),
			node(
				'List',
				`${PKG}.gridBankPartner`,
				{ operation: 'listContent', returnAll: false, limit: n },
				{ credentials: PACING_CRED },
			),
			node(
				'URLs',
				`${PKG}.gridBankPartner`,
				{ operation: 'getDownloadUrl', videoKey: '={{ $json.video_key }}' },
				{ credentials: PACING_CRED },
			),
		],
		[
			['Webhook', 'List'],
			['Start', 'List'],
			['List', 'URLs'],
		],
	);
}

/** The Partner Trigger, polling every minute (n8n's shortest), downloading each new master. */
function triggerWorkflow() {
	return workflow(
		TRIGGER_WF,
		'Queue: new licences',
		[
			node(
				'New licence',
				`${PKG}.gridBankPartnerTrigger`,
				{
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					download: true,
					binaryPropertyName: 'data',
					options: { includeExisting: false },
				},
				{ credentials: DEMO_CRED },
			),
		],
		[],
	);
}

/** POST {videoKey, key} copies one master into the examples' bucket on a worker (Copy to Storage). */
function copyWorkflow(bucket) {
	return workflow(
		COPY_WF,
		'Queue: copy one master to the bucket',
		[
			webhook('Webhook', COPY_PATH),
			node(
				'Copy',
				`${PKG}.gridBankPartner`,
				{
					operation: 'copyToStorage',
					videoKey: '={{ $json.body.videoKey }}',
					bucket,
					key: '={{ $json.body.key }}',
					ifExists: 'overwrite',
				},
				{
					credentials: {
						...DEMO_CRED,
						gridBankS3StorageApi: { id: 'gbStorageCredLocal', name: 'GridBank storage account' },
					},
				},
			),
		],
		[['Webhook', 'Copy']],
	);
}

/** The examples' Partner credential (the demo's own), and one on the pacing simulator. */
function credentials(baseUrl, pacingBaseUrl, sim) {
	const partner = demoCredentials(baseUrl, sim).find((c) => c.type === 'gridBankPartnerApi');
	return [
		partner,
		{
			id: 'gbPartnerCredPace',
			name: 'GridBank Partner (pacing simulator)',
			type: 'gridBankPartnerApi',
			data: { apiKey: sim.DEMO_PARTNER_KEY, baseUrl: pacingBaseUrl },
		},
	];
}

module.exports = {
	DOWNLOAD_WF,
	PACING_WF,
	TRIGGER_WF,
	COPY_WF,
	COPY_PATH,
	DOWNLOAD_PATH,
	PACING_PATH,
	downloadWorkflow,
	copyWorkflow,
	pacingWorkflow,
	triggerWorkflow,
	credentials,
};
