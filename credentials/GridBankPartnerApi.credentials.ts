import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { PARTNER } from '../nodes/GridBankPartner/transport/profile';
import { apiKeyProperty, baseUrlProperty, bearerAuth, ICON, testRequest } from './common';

export class GridBankPartnerApi implements ICredentialType {
	name = 'gridBankPartnerApi';

	displayName = 'GridBank Partner API';

	documentationUrl = 'https://github.com/gridbank/n8n-nodes-gridbank#credentials';

	icon = ICON;

	properties: INodeProperties[] = [
		apiKeyProperty(
			'A Partner API key, apik_<id>.<secret>. Create one in GridBank account settings under API keys: the secret is shown only once. Each member of a team account has keys of their own.',
			'apik_7f3a.Xk29...',
		),
		baseUrlProperty,
	];

	authenticate: IAuthenticateGeneric = bearerAuth;

	test: ICredentialTestRequest = testRequest(PARTNER);
}
