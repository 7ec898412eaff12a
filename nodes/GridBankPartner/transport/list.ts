// GET /partner/v1/content: the account's licences, newest purchase first, by cursor (List
// Licensed Content and every trigger poll).
import type { ItemScope } from '../../shared/item-context';
import type { GridBankClient } from '../../shared/transport/client';
import { type ListOptions, pageByCursor, type PagingResult } from '../../shared/transport/paging';
import { PARTNER } from './profile';

export async function listLicences(
	client: GridBankClient,
	scope: ItemScope,
	options: ListOptions = {},
): Promise<PagingResult> {
	return await pageByCursor(client, { path: PARTNER.paths.list, ...scope, ...options });
}
