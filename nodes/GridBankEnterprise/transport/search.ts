// GET /external/v1/videos/search: numbered pages with a constant per_page, up to the API's last
// page; every item carries the search_id of its response.
import type { ItemScope } from '../../shared/item-context';
import type { GridBankClient } from '../../shared/transport/client';
import { type ListOptions, pageByNumber, type PagingResult } from '../../shared/transport/paging';
import { ENTERPRISE } from './profile';

export async function searchVideos(
	client: GridBankClient,
	scope: ItemScope,
	options: ListOptions = {},
): Promise<PagingResult> {
	return await pageByNumber(client, { path: ENTERPRISE.paths.list, ...scope, ...options });
}
