// The IWorkflowExecuteAdditionalData every in-process run hands n8n-core: the test credentials
// helper, the instance URLs n8n would know, and refusals for what the tests never use.
import type { ExecutionLifecycleHooks } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	INodeParameters,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { TestCredentialsHelper } from './credentials-helper';
import { credentialTypes } from './node-types';

export interface AdditionalDataOptions {
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	workflowId: string;
	executionId?: string;
	hooks?: ExecutionLifecycleHooks;
	/** What the editor sends with a load-options / list-search request: the node's current parameters. */
	currentNodeParameters?: INodeParameters;
}

export function testAdditionalData(options: AdditionalDataOptions): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: new TestCredentialsHelper(credentialTypes, options.credentials ?? {}),
		hooks: options.hooks,
		executionId: options.executionId,
		workflowId: options.workflowId,
		currentNodeExecutionIndex: 0,
		currentNodeParameters: options.currentNodeParameters,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not used in these tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('task runners are not used in these tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}
