// The node's description: the internal names saved workflows depend on (workflows and outside checks
// depend on them), defaults, the Options collection on every operation, icons and codex.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties } from 'n8n-workflow';

import { GridBankEnterprise } from '../../../nodes/GridBankEnterprise/GridBankEnterprise.node';

const { description } = new GridBankEnterprise();
const dir = join(__dirname, '..', '..', '..', 'nodes', 'GridBankEnterprise');

/** The properties shown for one resource/operation (top level only, as the editor shows them). */
const shownFor = (resource: string, operation: string) =>
	description.properties.filter((p) => {
		const show = p.displayOptions?.show;
		if (!show) return true;
		return (
			(!show.resource || show.resource.includes(resource)) &&
			(!show.operation || show.operation.includes(operation))
		);
	});
const byName = (properties: INodeProperties[], name: string) =>
	properties.find((p) => p.name === name);

test('name, credential, tool use, icons, subtitle', () => {
	expect(description.name).toBe('gridBankEnterprise');
	expect(description.credentials).toEqual([
		{ name: 'gridBankEnterpriseApi', required: true },
		// Copy to Storage alone asks for the S3-Compatible Storage credential.
		{
			name: 'gridBankS3StorageApi',
			required: true,
			displayOptions: { show: { operation: ['copyToStorage'] } },
		},
	]);
	expect(description.usableAsTool).toBe(true);
	expect(description.icon).toEqual({ light: 'file:gridbank.svg', dark: 'file:gridbank.dark.svg' });
	for (const icon of ['gridbank.svg', 'gridbank.dark.svg'])
		expect(readFileSync(join(dir, icon), 'utf8')).toMatch(/^<svg /);
	expect(description.subtitle).toContain('$parameter["operation"]');
});

test('codex file names the node', () => {
	const codex = JSON.parse(readFileSync(join(dir, 'GridBankEnterprise.node.json'), 'utf8'));
	expect(codex.node).toBe('n8n-nodes-gridbank.gridBankEnterprise');
	expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\//);
	expect(existsSync(join(dir, 'GridBankEnterprise.node.ts'))).toBe(true);
});

test('resources and operations as saved workflows name them', () => {
	const resource = byName(description.properties, 'resource');
	expect(resource?.options?.map((o) => ('value' in o ? o.value : undefined))).toEqual([
		'video',
		'usage',
	]);
	const operations = description.properties
		.filter((p) => p.name === 'operation')
		.map((p) => [
			p.displayOptions?.show?.resource,
			p.options?.map((o) => ('value' in o ? o.value : undefined)).sort(),
		]);
	expect(operations).toEqual([
		[['video'], ['copyToStorage', 'get', 'getDownload', 'search']],
		[['usage'], ['get']],
	]);
});

test.each([
	[
		'video',
		'search',
		['query', 'returnAll', 'limit', 'filters', 'options'],
		['outputFormat', 'maxRetries'],
	],
	['video', 'get', ['videoId', 'options'], ['outputFormat', 'maxRetries']],
	[
		'video',
		'getDownload',
		[
			'videoId',
			'expiresIn',
			'searchId',
			'download',
			'bigFilesNotice',
			'binaryPropertyName',
			'options',
		],
		['parallelConnections', 'maxRetries'],
	],
	['usage', 'get', ['options'], ['maxRetries']],
])('%s.%s parameters', (resource, operation, names, optionNames) => {
	const shown = shownFor(resource, operation).filter(
		(p) => p.name !== 'resource' && p.name !== 'operation',
	);
	expect(shown.map((p) => p.name).sort()).toEqual([...names].sort());
	const options = byName(shown, 'options');
	expect(options?.type).toBe('collection');
	expect(options?.options?.map((o) => o.name)).toEqual(optionNames);
});

test('defaults and filters', () => {
	const search = shownFor('video', 'search');
	expect(byName(search, 'limit')?.default).toBe(50);
	expect(byName(search, 'returnAll')?.default).toBe(false);
	const filters = byName(search, 'filters')?.options as INodeProperties[];
	expect(filters.map((f) => f.name).sort()).toEqual([
		'durationMax',
		'durationMin',
		'sort',
		'theme',
	]);
	expect(
		byName(filters, 'sort')?.options?.map((o) => ('value' in o ? o.value : undefined)),
	).toEqual(['relevant', 'popular', 'recent']);
	const download = shownFor('video', 'getDownload');
	expect(byName(download, 'expiresIn')).toMatchObject({
		default: 5,
		typeOptions: { minValue: 1, maxValue: 5 },
	});
	expect(byName(download, 'download')?.default).toBe(false);
	expect(byName(download, 'binaryPropertyName')?.default).toBe('data');
});
