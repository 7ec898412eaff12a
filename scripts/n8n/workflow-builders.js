'use strict';
/**
 * n8n workflow JSON built in code, one way for every suite: the e2e tests, the queue-mode suite
 * and the benchmark's storage chain. The credential ids are those of the credentials the suites
 * import into n8n (demo-fixtures.js, e2e/global-setup.js) and the examples name.
 */
const crypto = require('node:crypto');

const PKG = 'n8n-nodes-gridbank';

const PARTNER_CRED = {
	gridBankPartnerApi: { id: 'gbPartnerCredDemo', name: 'GridBank Partner account' },
};
const ENTERPRISE_CRED = {
	gridBankEnterpriseApi: { id: 'gbEnterpriseCredDm', name: 'GridBank Enterprise account' },
};
/** The package's storage credential (Copy to Storage), pointing at the suite's local S3 server. */
const STORAGE_CRED = {
	gridBankS3StorageApi: { id: 'gbStorageCredLocal', name: 'GridBank storage account' },
};
const BAD_PARTNER_CRED = {
	gridBankPartnerApi: { id: 'gbPartnerBadKey01', name: 'GridBank Partner (wrong key)' },
};

let x = 0;
function node(name, type, parameters, extra = {}) {
	x += 220;
	return {
		parameters,
		id: crypto.randomUUID(),
		name,
		type,
		typeVersion: 1,
		position: [x, 0],
		...extra,
	};
}
const manualTrigger = (name = 'Start') => node(name, 'n8n-nodes-base.manualTrigger', {});
const partner = (name, parameters, extra = {}) =>
	node(name, `${PKG}.gridBankPartner`, parameters, { credentials: PARTNER_CRED, ...extra });
const enterprise = (name, parameters, extra = {}) =>
	node(name, `${PKG}.gridBankEnterprise`, parameters, { credentials: ENTERPRISE_CRED, ...extra });

/** A workflow from nodes and [from, to] edges (main output 0 to main input 0). */
function workflow(id, name, nodes, edges) {
	const connections = {};
	for (const [from, to] of edges) {
		connections[from] ??= { main: [[]] };
		connections[from].main[0].push({ node: to, type: 'main', index: 0 });
	}
	return {
		id,
		name,
		nodes,
		connections,
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/** Every edge from `trigger` to each of `nodes` (independent branches of one run). */
const fanOut = (trigger, nodes) => nodes.map((n) => [trigger.name, n.name]);

module.exports = {
	PKG,
	PARTNER_CRED,
	ENTERPRISE_CRED,
	STORAGE_CRED,
	BAD_PARTNER_CRED,
	node,
	manualTrigger,
	partner,
	enterprise,
	workflow,
	fanOut,
};
