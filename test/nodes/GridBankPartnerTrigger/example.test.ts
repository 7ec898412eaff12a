// examples/partner-trigger-backup.json (and the queue-mode variant) are workflows n8n can import
// and keep state for: the checks n8n itself would only fail silently on (a too-long id means its
// static data is never saved), and their shape; e2e/ runs them.
import type { INodeProperties } from 'n8n-workflow';

import { GridBankPartnerTrigger } from '../../../nodes/GridBankPartnerTrigger/GridBankPartnerTrigger.node';
import { type ExampleNode, readExample } from '../../harness/example-workflow';

const { workflow, trigger } = readExample('partner-trigger-backup.json', 'gridBankPartnerTrigger');

test('its id is one n8n saves static data for (1-21 characters), so the trigger keeps its state', () => {
	expect(workflow.id.length).toBeGreaterThan(0);
	expect(workflow.id.length).toBeLessThanOrEqual(21);
});

test('the trigger only notices new licences (no Download File), polls every few minutes, and names only parameters the node has', () => {
	const properties = new GridBankPartnerTrigger().description.properties;
	const known = new Set(['pollTimes', ...properties.map((property) => property.name)]);
	for (const name of Object.keys(trigger.parameters)) expect(known).toContain(name);
	const options = properties.find((property) => property.name === 'options') as INodeProperties & {
		options: INodeProperties[];
	};
	for (const name of Object.keys(trigger.parameters.options as object))
		expect(options.options.map((option) => option.name)).toContain(name);
	expect(trigger.parameters).toMatchObject({ download: false });
	expect(trigger.parameters.pollTimes).toEqual({
		item: [{ mode: 'everyX', value: 5, unit: 'minutes' }],
	});
	expect(Object.keys(trigger.credentials ?? {})).toEqual(['gridBankPartnerApi']);
});

/** Both trigger examples: trigger → Settings → Copy to bucket (Copy to Storage, error output) → Slack. */
function expectCopyShape(example: typeof workflow, triggerName: string) {
	const nodes = example.nodes as Array<ExampleNode & { onError?: string }>;
	const names = nodes.map((node) => node.name);
	const next = (name: string, output = 0) =>
		example.connections[name]?.main[output].map((target) => target.node);
	expect(next(triggerName)).toEqual(['Settings']);
	expect(next('Settings')).toEqual(['Copy to bucket']);
	expect(next('Copy to bucket', 0)).toEqual(['Summary for Slack']);
	expect(next('Copy to bucket', 1)).toEqual(['Not backed up']);
	expect(next('Summary for Slack')).toEqual(['Post to Slack']);
	expect(next('Not backed up')).toEqual(['Warn on Slack']);
	for (const [from, connection] of Object.entries(example.connections)) {
		expect(names).toContain(from);
		for (const target of connection.main.flat()) expect(names).toContain(target.node);
	}
	for (const node of nodes) expect(node.disabled).toBeUndefined();
	const copy = nodes.find((node) => node.name === 'Copy to bucket');
	expect(copy).toMatchObject({
		type: 'n8n-nodes-gridbank.gridBankPartner',
		onError: 'continueErrorOutput',
		parameters: {
			operation: 'copyToStorage',
			videoKey: '={{ $json.video_key }}',
			bucket: "={{ $('Settings').item.json.bucket }}",
			key: '',
		},
	});
	expect(Object.keys(copy?.credentials ?? {}).sort()).toEqual([
		'gridBankPartnerApi',
		'gridBankS3StorageApi',
	]);
	// Slack announces each copy's key and SHA-256; no node holds the master as binary data.
	const summary = JSON.stringify(nodes.find((node) => node.name === 'Summary for Slack'));
	for (const field of ['copy.bucket', 'copy.key', 'copy.sha256']) expect(summary).toContain(field);
	expect(nodes.some((node) => node.type === 'n8n-nodes-base.s3')).toBe(false);
}

test('trigger → Settings → Copy to bucket: copied masters → Summary → Post to Slack, failed ones (error output) → Not backed up → Warn on Slack; nothing disabled', () => {
	expectCopyShape(workflow, trigger.name);
});

test('the queue-mode example: the same copy, run in the execution (on a worker), never as binary data', () => {
	const example = readExample('partner-trigger-queue-backup.json', 'gridBankPartnerTrigger');
	expect(example.workflow.id.length).toBeLessThanOrEqual(16);
	expect(example.trigger.parameters.download).toBe(false);
	expectCopyShape(example.workflow, example.trigger.name);
});
