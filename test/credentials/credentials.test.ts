// Each credential's test request, resolved the way n8n resolves it (expressions over
// $credentials, generic authenticate), sent to the simulator: a good key passes, a bad one fails.
import { request } from 'undici';
import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { DEMO_ENTERPRISE_KEY, DEMO_PARTNER_KEY } from '../../simulator';
import { TestCredentialsHelper } from '../harness/credentials-helper';
import { credentialTypes, nodeTypes } from '../harness/node-types';
import { useSimulator } from '../harness/simulator';

const sim = useSimulator();

async function testCredential(type: string, data: ICredentialDataDecryptedObject) {
	const definition = credentialTypes[type];
	const node: INode = {
		id: '1',
		name: 'Start',
		type: 'test.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, nodeTypes, active: false });
	const helper = new TestCredentialsHelper(credentialTypes, { [type]: data });
	const { request: test } = definition.test!;
	const baseURL = helper.resolve(String(test.baseURL), data, workflow, node);
	const options = await helper.authenticate(
		data,
		type,
		{ url: helper.resolve(String(test.url), data, workflow, node), headers: { ...test.headers } },
		workflow,
		node,
	);
	const url = new URL(`${baseURL}${options.url}`);
	for (const [name, value] of Object.entries(test.qs ?? {}))
		url.searchParams.set(name, String(value));
	const response = await request(url, { headers: options.headers as Record<string, string> });
	await response.body.dump();
	return { status: response.statusCode, url, headers: options.headers as Record<string, string> };
}

describe.each([
	['gridBankPartnerApi', DEMO_PARTNER_KEY, '/partner/v1/content', 'apik_nobody.wrong-secret'],
	['gridBankEnterpriseApi', DEMO_ENTERPRISE_KEY, '/external/v1/usage/me', 'ent_wrong_key'],
])('%s test request', (type, goodKey, path, badKey) => {
	test('passes with a good key (pasted with whitespace, base URL with a trailing slash)', async () => {
		const result = await testCredential(type, {
			apiKey: `${goodKey}\n`,
			baseUrl: `${sim().baseUrl}/`,
		});
		expect(result.status).toBe(200);
		expect(result.url.pathname).toBe(path);
		expect(result.headers.Authorization).toBe(`Bearer ${goodKey}`);
		expect(result.headers['User-Agent']).toMatch(/^n8n-nodes-gridbank\//);
	});

	test('fails with a bad key', async () => {
		const result = await testCredential(type, { apiKey: badKey, baseUrl: sim().baseUrl });
		expect(result.status).toBe(401);
	});
});

test('the Partner test lists one video at most', async () => {
	const result = await testCredential('gridBankPartnerApi', {
		apiKey: DEMO_PARTNER_KEY,
		baseUrl: sim().baseUrl,
	});
	expect(result.url.searchParams.get('per_page')).toBe('1');
});
