// The declared n8nNodesApiVersion, put through the check n8n's own loader runs on every installed
// community package (docs/n8n-3.md): n8n 2.x loads a package whose level is at most the one it
// supports (1) and skips one that declares more, such as 3.x's level 3. Engines older than the
// check (the test matrix's n8n 1.x) do not read the field, so there the test is skipped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as workflow from 'n8n-workflow';

type Check = (pkg: object) => { compatible: boolean; reason?: string };

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
	n8n: { n8nNodesApiVersion: number };
};
const check = (workflow as { checkNodesApiVersion?: Check }).checkNodesApiVersion;
const supported = (workflow as { N8N_NODES_API_VERSION?: unknown }).N8N_NODES_API_VERSION;

(check ? test : test.skip)(
	'this n8n loads the package at the level it declares, and would skip level 3',
	() => {
		expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
		expect(check!(pkg)).toEqual({ compatible: true, version: 1 });
		// n8n 2.x supports level 1 only: declaring 3.x's level would make it skip the package.
		expect(supported).toBe(1);
		expect(check!({ n8n: { n8nNodesApiVersion: 3 } })).toMatchObject({
			compatible: false,
			reason: 'unsupported',
		});
	},
);
