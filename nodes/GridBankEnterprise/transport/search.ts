// GET /external/v1/videos/search: numbered pages with a constant per_page, up to the API's last
// page; every item carries the search_id of its response.
import type { IDataObject } from 'n8n-workflow';

import type { ItemScope } from '../../shared/item-context';
import type { GridBankClient } from '../../shared/transport/client';
import { pageByNumber, type PagingRequest, type PagingResult } from '../../shared/transport/paging';

export async function searchVideos(
	client: GridBankClient,
	scope: ItemScope,
	qs: IDataObject,
	limit: number | undefined,
	stopAt?: (video: IDataObject) => boolean,
	pages: Pick<PagingRequest, 'afterPage' | 'maxPages'> = {},
): Promise<PagingResult> {
	return await pageByNumber(client, {
		path: '/videos/search',
		qs,
		...scope,
		limit,
		stopAt,
		...pages,
	});
}
