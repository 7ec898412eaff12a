// The package as n8n loads it: no runtime dependencies, the n8n field naming built files,
// and the User-Agent version in step with package.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PACKAGE_VERSION, USER_AGENT } from '../../nodes/shared/version';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));

test('no runtime dependencies, n8n-workflow as a peer', () => {
	expect(pkg.dependencies ?? {}).toEqual({});
	expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	expect(pkg.keywords).toContain('n8n-community-node-package');
	expect(pkg.files).toEqual(['dist']);
});

test('the User-Agent carries the package version', () => {
	expect(PACKAGE_VERSION).toBe(pkg.version);
	expect(USER_AGENT).toBe(`n8n-nodes-gridbank/${pkg.version}`);
});

test('n8n entries point at the built nodes and credentials', () => {
	expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
	expect(pkg.n8n.strict).toBe(true);
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
		expect(file).toMatch(/^dist\/.*\.(node|credentials)\.js$/);
		const source = join(__dirname, '..', '..', file.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
		expect(() => readFileSync(source)).not.toThrow();
	}
});

test('dev dependencies are pinned to exact versions', () => {
	for (const [name, version] of Object.entries(pkg.devDependencies as Record<string, string>))
		expect(`${name}@${version}`).toMatch(/@\d+\.\d+\.\d+$/);
});
