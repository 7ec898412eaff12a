import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { ENTERPRISE } from '../nodes/GridBankEnterprise/transport/profile';
import { apiKeyProperty, baseUrlProperty, bearerAuth, ICON, testRequest } from './common';

export class GridBankEnterpriseApi implements ICredentialType {
	name = 'gridBankEnterpriseApi';

	displayName = 'GridBank Enterprise API';

	documentationUrl = 'https://github.com/gridbank/n8n-nodes-gridbank#credentials';

	icon = ICON;

	properties: INodeProperties[] = [
		apiKeyProperty(
			'The Enterprise API key from the GridBank Enterprise dashboard. It is separate from Partner API keys.',
		),
		baseUrlProperty,
	];

	authenticate: IAuthenticateGeneric = bearerAuth;

	test: ICredentialTestRequest = testRequest(ENTERPRISE);
}
