// Pure: the per_page a search asks for (paging.ts) and when paging gives up on a list that
// does not end (page-progress.ts). No engine, no HTTP.
import type { INode } from 'n8n-workflow';

import {
	endlessListError,
	PageProgress,
	UNPRODUCTIVE_PAGES,
} from '../../../../nodes/shared/transport/page-progress';
import { perPageFor } from '../../../../nodes/shared/transport/paging';

const node: INode = {
	id: 'n',
	name: 'GridBank',
	type: 'n8n-nodes-gridbank.gridBankEnterprise',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

describe('perPageFor: Return All takes the largest page; a limit the fewest pages, each as small as still covers it', () => {
	test.each([
		[undefined, 80, 80],
		[1, 80, 1],
		[79, 80, 79],
		[80, 80, 80],
		[81, 80, 41],
		[160, 80, 80],
		[161, 80, 54],
		[500, 100, 100],
		[250, 100, 84],
	])('limit %p, max %i → %i per page', (limit, max, perPage) => {
		expect(perPageFor(limit, max)).toBe(perPage);
		if (limit !== undefined) {
			const pages = Math.ceil(limit / max);
			// As few pages as the maximum allows, and they cover the limit.
			expect(Math.ceil(limit / perPage)).toBe(pages);
			expect(perPage * pages).toBeGreaterThanOrEqual(limit);
			expect(perPage).toBeLessThanOrEqual(max);
		}
	});
});

describe('PageProgress', () => {
	test(`stalls after ${UNPRODUCTIVE_PAGES} pages in a row without a new video; a productive page resets the count`, () => {
		const progress = new PageProgress();
		expect(progress.stalled(0)).toBe(false);
		expect(progress.stalled(0)).toBe(false);
		expect(progress.stalled(5)).toBe(false);
		expect(progress.stalled(0)).toBe(false);
		expect(progress.stalled(0)).toBe(false);
		expect(progress.stalled(0)).toBe(true);
		expect(progress.requests).toBe(6);
	});

	test('a cursor seen before is a circle', () => {
		const progress = new PageProgress();
		expect(progress.repeats('a')).toBe(false);
		expect(progress.repeats('b')).toBe(false);
		expect(progress.repeats('a')).toBe(true);
	});

	test('after a restart, re-reading known pages is allowed, and cursors start afresh', () => {
		const progress = new PageProgress();
		progress.repeats('a');
		progress.restarted(2);
		expect(progress.repeats('a')).toBe(false);
		for (let page = 1; page < UNPRODUCTIVE_PAGES + 2; page++)
			expect(progress.stalled(0)).toBe(false);
		expect(progress.stalled(0)).toBe(true);
		// A productive page brings the allowance back to the normal one.
		progress.stalled(1);
		for (let page = 1; page < UNPRODUCTIVE_PAGES; page++) expect(progress.stalled(0)).toBe(false);
		expect(progress.stalled(0)).toBe(true);
	});

	test('endlessListError says why paging stopped and after how many requests', () => {
		const idle = endlessListError(node, 3, 'idle', 7);
		expect(idle.message).toBe(
			`The list of videos did not end: GridBank sent ${UNPRODUCTIVE_PAGES} pages in a row without a new video`,
		);
		expect(idle.description).toMatch(/^Paging was stopped after 7 requests/);
		expect(idle.context.itemIndex).toBe(3);
		const cursor = endlessListError(node, 0, 'cursor', 1);
		expect(cursor.message).toBe(
			'The list of videos did not end: GridBank sent a page cursor it had already sent',
		);
		expect(cursor.description).toMatch(/^Paging was stopped after 1 request so/);
	});
});
