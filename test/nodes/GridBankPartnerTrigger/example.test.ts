// examples/partner-trigger-backup.json is a workflow n8n can import and keep state for: the
// checks n8n itself would only fail silently on (a too-long id means its static data is never saved).
import type { INodeProperties } from 'n8n-workflow';

import { GridBankPartnerTrigger } from '../../../nodes/GridBankPartnerTrigger/GridBankPartnerTrigger.node';
import { readExample } from '../../harness/example-workflow';

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

test('trigger → Settings → Write to disk → Summary → Slack (disabled), every connection to a node that exists', () => {
	const names = workflow.nodes.map((node) => node.name);
	const next = (name: string) => workflow.connections[name]?.main[0].map((target) => target.node);
	expect(next(trigger.name)).toEqual(['Settings']);
	expect(next('Settings')).toEqual(['Write to disk']);
	expect(next('Write to disk')).toEqual(['Summary for Slack']);
	expect(next('Summary for Slack')).toEqual(['Post to Slack']);
	for (const [from, connection] of Object.entries(workflow.connections)) {
		expect(names).toContain(from);
		for (const target of connection.main.flat()) expect(names).toContain(target.node);
	}
	expect(workflow.nodes.find((node) => node.name === 'Post to Slack')?.disabled).toBe(true);
	// The Set node passes the downloaded file on: other fields and binary data kept.
	expect(workflow.nodes.find((node) => node.name === 'Settings')?.parameters).toMatchObject({
		includeOtherFields: true,
		options: { stripBinary: false },
	});
});
