// A credentials helper for in-process runs: it hands out the test's credential data and applies
// a credential type's generic `authenticate` the way n8n's server does, resolving its
// expressions with the workflow's own expression engine.
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';
import { Credentials } from 'n8n-core';

export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Record<string, ICredentialType>,
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	resolve(
		value: string,
		credentials: ICredentialDataDecryptedObject,
		workflow?: Workflow,
		node?: INode,
	): string {
		if (!value.startsWith('=') || !workflow || !node) return value;
		const resolved = workflow.expression.getSimpleParameterValue(
			node,
			value,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		return resolved === undefined || resolved === null ? '' : String(resolved);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const type = this.types[typeName];
		const options = requestOptions as IHttpRequestOptions & Record<string, unknown>;
		const auth = type?.authenticate;
		if (typeof auth === 'function') return await auth(credentials, options);
		if (auth && auth.type === 'generic') {
			for (const [outer, values] of Object.entries(auth.properties)) {
				const target = ((options as Record<string, unknown>)[outer] ??= {}) as Record<
					string,
					unknown
				>;
				for (const [key, value] of Object.entries(values as Record<string, string>))
					target[this.resolve(key, credentials, workflow, node)] = this.resolve(
						String(value),
						credentials,
						workflow,
						node,
					);
			}
		}
		return options;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		return new Credentials({ id: nodeCredentials.id, name: nodeCredentials.name }, type);
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new Error(`No test credentials for "${type}"`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}
}
