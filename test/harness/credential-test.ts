// The credential's "Test connection", run the way n8n's CredentialsTester runs a declarative
// test: n8n-core's ExecuteContext + RoutingNode over a copy of a node whose one property routes
// the test request (the credential's authenticate applied as n8n applies it), then the tester's
// status and body rules.
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	INode,
	INodeType,
	INodeTypes,
	IRunExecutionData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { testAdditionalData } from './additional-data';
import { credentialTypes } from './node-types';

/** CredentialsTester.testCredentials, declarative branch, as in n8n 2.41. */
export async function credentialTest(type: string, data: ICredentialDataDecryptedObject) {
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
