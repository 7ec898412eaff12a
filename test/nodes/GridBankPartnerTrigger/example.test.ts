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

test('the trigger downloads each file into "data", polls every few minutes, and names only parameters the node has', () => {
	const properties = new GridBankPartnerTrigger().description.properties;
	const known = new Set(['pollTimes', ...properties.map((property) => property.name)]);
	for (const name of Object.keys(trigger.parameters)) expect(known).toContain(name);
	const options = properties.find((property) => property.name === 'options') as INodeProperties & {
		options: INodeProperties[];
	};
	for (const name of Object.keys(trigger.parameters.options as object))
		expect(options.options.map((option) => option.name)).toContain(name);
	expect(trigger.parameters).toMatchObject({ download: true, binaryPropertyName: 'data' });
	expect(trigger.parameters.pollTimes).toEqual({
		item: [{ mode: 'everyX', value: 5, unit: 'minutes' }],
	});
	expect(Object.keys(trigger.credentials ?? {})).toEqual(['gridBankPartnerApi']);
});

test('trigger → Settings → Downloaded? (IF on downloadError): good files → Upload to S3 → Summary → Post to Slack, failed ones → Not backed up → Warn on Slack; nothing disabled', () => {
	const names = workflow.nodes.map((node) => node.name);
	const next = (name: string, output = 0) =>
		workflow.connections[name]?.main[output].map((target) => target.node);
	expect(next(trigger.name)).toEqual(['Settings']);
	expect(next('Settings')).toEqual(['Downloaded?']);
	expect(next('Downloaded?', 0)).toEqual(['Upload to S3']);
	expect(next('Downloaded?', 1)).toEqual(['Not backed up']);
	expect(next('Upload to S3')).toEqual(['Summary for Slack']);
	expect(next('Summary for Slack')).toEqual(['Post to Slack']);
	expect(next('Not backed up')).toEqual(['Warn on Slack']);
	for (const [from, connection] of Object.entries(workflow.connections)) {
		expect(names).toContain(from);
		for (const target of connection.main.flat()) expect(names).toContain(target.node);
	}
	for (const node of workflow.nodes) expect(node.disabled).toBeUndefined();
	// The IF's true branch is "no downloadError".
	const condition = JSON.stringify(
		workflow.nodes.find((node) => node.name === 'Downloaded?')?.parameters,
	);
	expect(condition).toContain('{{ $json.downloadError }}');
	expect(condition).toContain('"operation":"notExists"');
	// The Set node passes the downloaded file on: other fields and binary data kept.
	expect(workflow.nodes.find((node) => node.name === 'Settings')?.parameters).toMatchObject({
		includeOtherFields: true,
		options: { stripBinary: false },
	});
});

test('the queue-mode example: the trigger without Download File, the download in the workflow (on a worker), its error output to the Slack warning', () => {
	const example = readExample('partner-trigger-queue-backup.json', 'gridBankPartnerTrigger');
	const queue = example.workflow as typeof workflow & {
		nodes: Array<ExampleNode & { onError?: string }>;
	};
	expect(queue.id.length).toBeLessThanOrEqual(16);
	const queueTrigger = example.trigger;
	expect(queueTrigger.parameters.download).toBe(false);
	const download = queue.nodes.find((node) => node.name === 'Download master');
	expect(download).toMatchObject({
		type: 'n8n-nodes-gridbank.gridBankPartner',
		onError: 'continueErrorOutput',
		parameters: { operation: 'getDownloadUrl', download: true, videoKey: '={{ $json.video_key }}' },
	});
	const next = (name: string, output = 0) =>
		queue.connections[name]?.main[output].map((target) => target.node);
	expect(next(queueTrigger.name)).toEqual(['Settings']);
	expect(next('Settings')).toEqual(['Download master']);
	expect(next('Download master', 0)).toEqual(['Upload to S3']);
	expect(next('Download master', 1)).toEqual(['Not backed up']);
	for (const node of queue.nodes) expect(node.disabled).toBeUndefined();
});
