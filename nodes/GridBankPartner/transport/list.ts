// GET /partner/v1/content: the account's licences, newest purchase first, by cursor (List
// Licensed Content and every trigger poll).
import type { IDataObject } from 'n8n-workflow';

import type { ItemScope } from '../../shared/item-context';
import type { GridBankClient } from '../../shared/transport/client';
import { pageByCursor, type PagingResult } from '../../shared/transport/paging';

export async function listLicences(
	client: GridBankClient,
	scope: ItemScope,
	options: { limit?: number; stopAt?: (video: IDataObject) => boolean } = {},
): Promise<PagingResult> {
	return await pageByCursor(client, { path: '/content', ...scope, ...options });
}
