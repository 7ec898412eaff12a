// The credential's "Test connection", run the way n8n's CredentialsTester runs a declarative
// test (n8n-core's ExecuteContext + RoutingNode over a copy of a node whose one property
// routes the test request, then the tester's status rules), against an API that redirects to a
// second loopback origin: that origin must receive nothing, the test must fail saying why.
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialsDecrypted,
	INode,
	INodeType,
	INodeTypes,
	IRunExecutionData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { DEMO_ENTERPRISE_KEY, DEMO_PARTNER_KEY } from '../../simulator';
import { testAdditionalData } from '../harness/additional-data';
import { answersDataUrls, routingErrorKeepsResponse } from '../harness/engine';
import { credentialTypes } from '../harness/node-types';
import { useSimulator } from '../harness/simulator';

const sim = useSimulator();

/** CredentialsTester.testCredentials, declarative branch, as in n8n 2.41. */
async function credentialTest(type: string, data: { apiKey: string; baseUrl: string }) {
	const test = credentialTypes[type].test!;
	const credentialsDecrypted: ICredentialsDecrypted = { id: 'c1', name: 'test', type, data };
	const nodeType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.request },
					default: '',
				},
			],
		},
	} as unknown as INodeType;
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		credentials: { [type]: { id: 'c1', name: 'test' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = testAdditionalData({
		workflowId: 'wf-cred',
		credentials: { [type]: data },
	});
	const runExecutionData = { resultData: { runData: {} } } as unknown as IRunExecutionData;
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		runExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	let response;
	try {
		response = await new RoutingNode(context, nodeType, credentialsDecrypted).runNode();
	} catch (error) {
		const cause = (
			error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }
		).cause;
		if (cause?.response) {
			for (const rule of test.rules ?? [])
				if (rule.type === 'responseCode' && rule.properties.value === cause.response.status)
					return { status: 'Error', message: rule.properties.message };
			return {
				status: 'Error',
				message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}`,
			};
		}
		return { status: 'Error', message: cause?.code ?? (error as Error).message };
	}
	// The tester's body rules: lodash's get(first item's json, key) === value.
	const json = response?.[0]?.[0]?.json as unknown;
	for (const rule of test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const value = rule.properties.key
			.split('.')
			.reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], json);
		if (value === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

const redirected = () => sim().log.filter((entry) => entry.target === 'redirect');

/**
 * The message the tester shows. Where RoutingNode's error has no `cause.response` (n8n-core
 * 1.122), the tester (which reads the rules the same way) never reaches them and shows n8n's own
 * message for the status: the key still goes nowhere else, only the wording differs.
 */
const shown = (ours: RegExp, n8nOwn: RegExp) => (routingErrorKeepsResponse ? ours : n8nOwn);

describe.each([
	['gridBankPartnerApi', DEMO_PARTNER_KEY],
	['gridBankEnterpriseApi', DEMO_ENTERPRISE_KEY],
])('%s connection test', (type, apiKey) => {
	test('passes against the API itself', async () => {
		expect(await credentialTest(type, { apiKey, baseUrl: sim().baseUrl })).toEqual({
			status: 'OK',
			message: expect.any(String),
		});
	});

	test.each([301, 302, 303, 307, 308] as const)(
		'a %s to another origin fails the test, and that origin receives nothing',
		async (status) => {
			sim().faults.redirectApi({ to: 'other', count: 1, status });
			const result = await credentialTest(type, { apiKey, baseUrl: sim().baseUrl });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				shown(
					/redirected the test request to another address .*the key was not sent there/,
					new RegExp(`status code ${status}\\b`),
				),
			);
			expect(redirected()).toEqual([]);
		},
	);

	test('a wrong key fails with the credential message, the key is not in it', async () => {
		const wrong =
			type === 'gridBankPartnerApi' ? 'apik_nobody.wrong-secret-123' : 'ent_wrong_key_123';
		const result = await credentialTest(type, { apiKey: wrong, baseUrl: sim().baseUrl });
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				shown(
					/key is missing, malformed or revoked/,
					/^Authorization failed - please check your credentials$/,
				),
			),
		});
		expect(result.message).not.toContain(wrong);
	});
});

describe('a Base URL the nodes refuse fails the test before anything is sent', () => {
	const port = () => new URL(sim().baseUrl).port;
	test.each([
		[() => `http://someone:hunter2pass@127.0.0.1:${port()}`, 'a user name and password'],
		[() => `http://127.0.0.1:${port()}/?region=eu`, 'a query string'],
		[() => `http://127.0.0.1:${port()}#top`, 'a fragment'],
		[() => 'http://api2.gridbank.example', 'plain http to another host'],
	])('%#: %s', async (baseUrl) => {
		const result = await credentialTest('gridBankPartnerApi', {
			apiKey: DEMO_PARTNER_KEY,
			baseUrl: baseUrl(),
		});
		// n8n shows the HTTP client's code for an address it cannot send to (ERR_BAD_REQUEST).
		expect(result).toEqual({ status: 'Error', message: expect.any(String) });
		expect(result.message).not.toContain('hunter2pass');
		expect(sim().log).toEqual([]);
	});

	test('loopback over plain http, any scheme case, is tested as before', async () => {
		const baseUrl = sim().baseUrl.replace('http://', 'HTTP://');
		expect(
			await credentialTest('gridBankPartnerApi', { apiKey: DEMO_PARTNER_KEY, baseUrl }),
		).toEqual({ status: 'OK', message: expect.any(String) });
	});
});

describe('a Partner key that is not apik_<id>.<secret> fails the test before anything is sent', () => {
	test.each([
		['an Enterprise key', 'ent_live_7f3a9c2b1d'],
		['no dot between id and secret', 'apik_7f3a9c2b1d'],
		['"Bearer " pasted in front', `Bearer ${DEMO_PARTNER_KEY}`],
		['a space inside', 'apik_demo.gridbank partner'],
		['an empty secret', 'apik_demo.'],
	])('%s', async (_label, apiKey) => {
		const result = await credentialTest('gridBankPartnerApi', { apiKey, baseUrl: sim().baseUrl });
		expect(result).toEqual({
			status: 'Error',
			message: answersDataUrls
				? expect.stringContaining('A Partner key looks like apik_<id>.<secret>')
				: 'ERR_BAD_REQUEST',
		});
		expect(result.message).not.toContain(apiKey);
		expect(sim().log).toEqual([]);
	});

	test('a good key pasted with spaces around it is still tested against GridBank', async () => {
		const result = await credentialTest('gridBankPartnerApi', {
			apiKey: ` ${DEMO_PARTNER_KEY}\n`,
			baseUrl: sim().baseUrl,
		});
		expect(result).toEqual({ status: 'OK', message: expect.any(String) });
		expect(sim().log.length).toBeGreaterThan(0);
	});
});
