// examples/enterprise-trigger-new-footage.json is a workflow n8n can import and keep state for,
// and its trigger, as configured there, emits new matching footage through the real engine; the
// copy into the bucket and the Slack steps run in the e2e suite.
import type { INodeProperties } from 'n8n-workflow';

import { GridBankEnterpriseTrigger } from '../../../nodes/GridBankEnterpriseTrigger/GridBankEnterpriseTrigger.node';
import { readExample } from '../../harness/example-workflow';
import { useSimulator } from '../../harness/simulator';
import { pollEnterpriseTrigger } from '../../harness/run-gridbank';
import { idsOf } from './helpers';

const { workflow, trigger } = readExample(
	'enterprise-trigger-new-footage.json',
	'gridBankEnterpriseTrigger',
);

const sim = useSimulator();

test('its id is one n8n saves static data for (1-21 characters)', () => {
	expect(workflow.id.length).toBeGreaterThan(0);
	expect(workflow.id.length).toBeLessThanOrEqual(21);
});

test('the trigger names only parameters the node has, downloads nothing itself (the copy does), on the Enterprise credential', () => {
	const properties = new GridBankEnterpriseTrigger().description.properties;
	const known = new Set(['pollTimes', ...properties.map((property) => property.name)]);
	for (const name of Object.keys(trigger.parameters)) expect(known).toContain(name);
	const collection = (name: string) =>
		(
			properties.find((property) => property.name === name) as INodeProperties & {
				options: INodeProperties[];
			}
		).options.map((option) => option.name);
	for (const group of ['options', 'filters'])
		for (const name of Object.keys(trigger.parameters[group] as object))
			expect(collection(group)).toContain(name);
	expect(trigger.parameters).toMatchObject({ download: false });
	expect(Object.keys(trigger.credentials ?? {})).toEqual(['gridBankEnterpriseApi']);
});

test('trigger → Settings → Copy to bucket (Copy to Storage) → Summary → Slack, its error output → a Slack warning; every connection to a node that exists', () => {
	const nodes = workflow.nodes as Array<(typeof workflow.nodes)[number] & { onError?: string }>;
	const names = nodes.map((node) => node.name);
	const next = (name: string, output = 0) =>
		workflow.connections[name]?.main[output].map((target) => target.node);
	expect(next(trigger.name)).toEqual(['Settings']);
	expect(next('Settings')).toEqual(['Copy to bucket']);
	expect(next('Copy to bucket')).toEqual(['Summary for Slack']);
	expect(next('Copy to bucket', 1)).toEqual(['Not copied']);
	expect(next('Summary for Slack')).toEqual(['Post to Slack']);
	expect(next('Not copied')).toEqual(['Warn on Slack']);
	for (const [from, connection] of Object.entries(workflow.connections)) {
		expect(names).toContain(from);
		for (const target of connection.main.flat()) expect(names).toContain(target.node);
	}
	expect(nodes.find((node) => node.name === 'Copy to bucket')).toMatchObject({
		type: 'n8n-nodes-gridbank.gridBankEnterprise',
		onError: 'continueErrorOutput',
		parameters: { resource: 'video', operation: 'copyToStorage', videoId: '={{ $json.id }}' },
	});
	expect(JSON.stringify(nodes.find((node) => node.name === 'Summary for Slack'))).toContain(
		'copy.sha256',
	);
});

test("the example's trigger, as configured, emits each new matching clip once (its file is the copy's)", async () => {
	const { pollTimes: _, ...parameters } = trigger.parameters;
	const live = pollEnterpriseTrigger(parameters);
	expect((await live.activate()).items).toBeNull();
	const [added] = sim().addEnterpriseVideos([
		{ title: 'Drone over the city at dawn', keywords: ['drone', 'city'], duration: 45 },
	]);
	sim().addEnterpriseVideos([{ title: 'Drone city, too long', duration: 600 }]);
	const run = await live.tick();
	expect(idsOf(run.items)).toEqual([added]);
	expect(run.items?.[0].binary).toBeUndefined();
	expect((await live.tick()).items).toBeNull();
});
