// Paging must end even when the API misbehaves: a next_cursor that repeats or cycles, or pages
// that bring no new video (empty, missing or already seen), would otherwise loop forever and,
// paced on the same key, starve every other execution. A few unproductive pages are tolerated
// (a page can legitimately repeat what moved between two requests); then paging stops.
import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** Pages in a row that add no new video before paging gives up. */
export const UNPRODUCTIVE_PAGES = 3;

/**
 * The listing ceiling: well above any real account, reached in about 3.3 minutes at GridBank's
 * 300 requests a minute (100,000 licences at 100 a page), with memory bounded by it on the way.
 */
export const CEILING_REQUESTS = 1000;
export const CEILING_VIDEOS = 100_000;

export class PageProgress {
	private readonly cursors = new Set<string>();
	private idle = 0;
	private allowance = UNPRODUCTIVE_PAGES;
	requests = 0;

	/** Records one page that added `added` new videos; true once too many pages in a row added none. */
	stalled(added: number): boolean {
		this.requests++;
		this.idle = added > 0 ? 0 : this.idle + 1;
		if (added > 0) this.allowance = UNPRODUCTIVE_PAGES;
		return this.idle >= this.allowance;
	}

	/** True once a list with more to come has taken the ceiling's requests, or holds its videos. */
	atCeiling(videos: number): boolean {
		return this.requests >= CEILING_REQUESTS || videos >= CEILING_VIDEOS;
	}

	/** A cursor already followed: the list went round in a circle. */
	repeats(cursor: string): boolean {
		if (this.cursors.has(cursor)) return true;
		this.cursors.add(cursor);
		return false;
	}

	/** After a restart from the first page, re-reading `pages` pages of known videos is expected. */
	restarted(pages: number): void {
		this.cursors.clear();
		this.idle = 0;
		this.allowance = UNPRODUCTIVE_PAGES + pages;
	}
}

export function endlessListError(
	node: INode,
	itemIndex: number,
	why: 'cursor' | 'idle',
	requests: number,
): NodeApiError {
	const what =
		why === 'cursor'
			? 'GridBank sent a page cursor it had already sent'
			: `GridBank sent ${UNPRODUCTIVE_PAGES} pages in a row without a new video`;
	return new NodeApiError(
		node,
		{ message: `paging stopped: ${why === 'cursor' ? 'cursor repeated' : 'no new videos'}` },
		{
			message: `The list of videos did not end: ${what}`,
			description: `Paging was stopped after ${requests} ${requests === 1 ? 'request' : 'requests'} so the workflow cannot loop forever; nothing of this list was passed on. Try again in a few minutes; if it keeps happening, contact GridBank support.`,
			itemIndex,
			failure: { cause: 'temporarily-unavailable' },
		},
	);
}

export function listCeilingError(node: INode, itemIndex: number, requests: number): NodeApiError {
	const ceiling = `${CEILING_VIDEOS.toLocaleString('en-US')} videos (${CEILING_REQUESTS.toLocaleString('en-US')} requests)`;
	return new NodeApiError(
		node,
		{ message: `paging stopped at the ceiling of ${ceiling}` },
		{
			message: `The list of licences was cut: it is longer than ${ceiling}`,
			description: `Paging stopped after ${requests} requests so one run cannot go on for ever; nothing of this list was passed on. Read less at a time: set Purchased After (under Options) to list only newer licences, or turn off Return All and set a Limit.`,
			itemIndex,
			failure: { cause: 'configuration-invalid' },
		},
	);
}
