// What both GridBank credentials share: the key field, the base URL, Bearer auth and a
// test request that identifies itself (GridBank's edge blocks anonymous traffic).
import type { IAuthenticateGeneric, ICredentialTestRequest, INodeProperties } from 'n8n-workflow';

import { USER_AGENT } from '../nodes/shared/version';

export const ICON = { light: 'file:gridbank.svg', dark: 'file:gridbank.dark.svg' } as const;

export const apiKeyProperty = (description: string, placeholder?: string): INodeProperties => ({
	displayName: 'API Key',
	name: 'apiKey',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	required: true,
	...(placeholder ? { placeholder } : {}),
	description,
});

export const baseUrlProperty: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: 'https://api2.gridbank.io',
	required: true,
	description: 'Leave as is for production; use the staging address GridBank gave you to test',
};

// Pasted keys often carry a trailing space or newline: trimmed here and in the nodes.
export const bearerAuth: IAuthenticateGeneric = {
	type: 'generic',
	properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey.trim()}}' } },
};

export const testRequest = (url: string, qs?: ICredentialTestRequest['request']['qs']): ICredentialTestRequest => ({
	request: {
		baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}',
		url,
		...(qs ? { qs } : {}),
		headers: { 'User-Agent': USER_AGENT },
	},
});
