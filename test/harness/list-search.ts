// Runs a node's listSearch method the way n8n's editor backend does
// (DynamicNodeParametersService.getResourceLocatorResults): a one-node workflow holding the
// node's current parameters, n8n-core's real LoadOptionsContext (credentials, request helpers,
// getCurrentNodeParameter), and `method.call(context, filter, paginationToken)`.
import { LoadOptionsContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ILoadOptionsFunctions,
	INode,
	INodeListSearchResult,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { testAdditionalData } from './additional-data';
import { nodeTypes } from './node-types';

const PACKAGE = 'n8n-nodes-gridbank';

export interface ListSearchOptions {
	/** Short type name: gridBankPartner, gridBankEnterprise. */
	type: string;
	/** Name of the listSearch method (the mode's searchListMethod). */
	method: string;
	/** Path of the parameter whose picker is open, as the editor sends it: parameters.videoKey. */
	path?: string;
	/** The node's parameters as the editor holds them while the picker is open. */
	parameters?: Record<string, unknown>;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	filter?: string;
	paginationToken?: string;
}

type ListSearchMethod = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

export async function listSearch(options: ListSearchOptions): Promise<INodeListSearchResult> {
	const type = `${PACKAGE}.${options.type}`;
	const nodeType = nodeTypes.getByNameAndVersion(type, 1) as INodeType;
	const method = nodeType.methods?.listSearch?.[options.method] as ListSearchMethod | undefined;
	if (typeof method !== 'function')
		throw new Error(`${options.type} has no listSearch method "${options.method}"`);

	const parameters = (options.parameters ?? {}) as INodeParameters;
	const node: INode = {
		id: 'uuid-1234',
		name: 'Temp-Node',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: Object.fromEntries(
			Object.keys(options.credentials ?? {}).map((name) => [name, { id: `cred-${name}`, name }]),
		),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = testAdditionalData({
		credentials: options.credentials,
		workflowId: 'wf-list-search',
		currentNodeParameters: parameters,
	});
	const context = new LoadOptionsContext(
		workflow,
		workflow.nodes['Temp-Node'],
		additionalData,
		options.path ?? 'parameters',
	);
	return await method.call(context, options.filter, options.paginationToken);
}

/** Every page of one search, following paginationToken to the end (or `maxPages`). */
export async function listSearchAll(
	options: Omit<ListSearchOptions, 'paginationToken'>,
	maxPages = 1000,
): Promise<{ pages: INodeListSearchResult[]; values: string[] }> {
	const pages: INodeListSearchResult[] = [];
	let paginationToken: string | undefined;
	do {
		const page = await listSearch({ ...options, paginationToken });
		pages.push(page);
		paginationToken = page.paginationToken;
	} while (paginationToken && pages.length < maxPages);
	return {
		pages,
		values: pages.flatMap((page) => page.results.map((result) => String(result.value))),
	};
}
