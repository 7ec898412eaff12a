// Adding an operation touches its own file and its resource, nothing else: each resource module
// exports its operations, and the node builds its Operation pickers, its router and its subtitle
// from them. Read from the modules themselves, so a new resource or operation is covered too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { INodeTypeDescription } from 'n8n-workflow';

import { GridBankEnterprise } from '../../nodes/GridBankEnterprise/GridBankEnterprise.node';
import { GridBankPartner } from '../../nodes/GridBankPartner/GridBankPartner.node';
import type { Operation, Resource } from '../../nodes/shared/operation';

const nodesDir = join(__dirname, '..', '..', 'nodes');

const actionNodes: Array<[folder: string, description: INodeTypeDescription]> = [
	['GridBankPartner', new GridBankPartner().description],
	['GridBankEnterprise', new GridBankEnterprise().description],
];

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [path];
	});
}

/** Every resource module of a node folder, as it exports itself. */
function resourcesOf(folder: string): Array<{ file: string; resource: Resource }> {
	return filesUnder(join(nodesDir, folder, 'actions'))
		.filter((file) => file.endsWith('.resource.ts'))
		.map((file) => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const exported = require(file) as { resource?: Resource };
			return { file: relative(nodesDir, file), resource: exported.resource as Resource };
		});
}

const pickerValues = (description: INodeTypeDescription, resource: string) =>
	description.properties
		.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))
		.flatMap((p) => (p.options ?? []).map((o) => ('value' in o ? o.value : undefined)));

describe.each(actionNodes)('%s', (folder, description) => {
	const resources = resourcesOf(folder);

	test('every resource module exports a resource with its operations', () => {
		expect(resources.length).toBeGreaterThan(0);
		for (const { file, resource } of resources) {
			expect([file, typeof resource?.value]).toEqual([file, 'string']);
			expect(resource.operations.length).toBeGreaterThan(0);
			for (const operation of resource.operations as Operation[]) {
				expect(typeof operation.option.value).toBe('string');
				expect(typeof operation.execute).toBe('function');
			}
		}
	});

	test("the Resource picker, each Operation picker and the subtitle are the resources' own", () => {
		const resourcePicker = description.properties.find((p) => p.name === 'resource');
		const values = resourcePicker?.options?.map((o) => ('value' in o ? o.value : undefined));
		expect(values?.sort()).toEqual(resources.map(({ resource }) => resource.value).sort());
		for (const { resource } of resources) {
			expect(pickerValues(description, resource.value)).toEqual(
				resource.operations.map((operation) => operation.option.value),
			);
			for (const operation of resource.operations)
				expect(description.subtitle).toContain(
					`"${resource.value}.${operation.option.value}": "${operation.subtitle ?? operation.option.name}"`,
				);
		}
	});

	test('the node file names no operation: it lists resources only', () => {
		const source = readFileSync(join(nodesDir, folder, `${folder}.node.ts`), 'utf8');
		const named = resources
			.flatMap(({ resource }) => resource.operations.map((o) => String(o.option.value)))
			.filter((value) => new RegExp(`['".]${value}['"]`).test(source));
		expect(named).toEqual([]);
	});

	test('one way to show a property: its resource applies resource + operation to all of them', () => {
		const files = filesUnder(join(nodesDir, folder, 'actions')).filter(
			(file) => !file.endsWith('.resource.ts'),
		);
		const attaching = files
			.filter((file) => /\bshow\b|displayOptions/.test(readFileSync(file, 'utf8')))
			.map((file) => relative(nodesDir, file));
		expect(attaching).toEqual([]);
		const known = resources.flatMap(({ resource }) =>
			resource.operations.map((operation) => `${resource.value}.${operation.option.value}`),
		);
		const shown = description.properties
			.filter((p) => p.name !== 'resource' && p.name !== 'operation')
			.map((p) => {
				const { resource, operation } = p.displayOptions?.show ?? {};
				return [p.name, `${String(resource)}.${String(operation)}`];
			});
		expect(shown.filter(([, pair]) => !known.includes(pair))).toEqual([]);
	});
});
