// Every 2xx body is checked before use: a body of another shape fails the item with a
// NodeApiError naming what was wrong; never a TypeError, an item per character, or videos
// silently dropped for lacking their id. Real engine, simulator's okBodyInstead fault.
import { runEnterprise, runPartner } from '../../../harness/run-gridbank';
import { useSimulator } from '../../../harness/simulator';

const sim = useSimulator();

const video = (n: number) => ({
	video_key: `k${n}`,
	title: `t${n}`,
	purchased_at: 1_700_000_000 - n,
});

describe('Partner list', () => {
	test.each([
		['videos is text', { videos: 'abc' }, /"videos" is text, not a list of videos/],
		['videos is an object', { videos: { a: 1 } }, /"videos" is an object, not a list of videos/],
		[
			'a video is a number',
			{ videos: [video(1), 7] },
			/video 2 of "videos" is a number, not an object/,
		],
		[
			'a video without its key',
			{ videos: [video(1), { title: 'no key' }] },
			/video 2 of "videos" has no "video_key"/,
		],
		['a list instead of an object', [video(1)], /the answer is a list, not an object/],
		[
			'next_cursor a number',
			{ videos: [video(1)], next_cursor: 5 },
			/"next_cursor" is a number, not text/,
		],
	])('%s → NodeApiError naming it, no items', async (_label, body, message) => {
		sim().faults.okBodyInstead('/partner/v1/content', body);
		const run = await runPartner({ operation: 'listContent', returnAll: true });
		expect(run.items).toEqual([]);
		expect(run.error?.name).toBe('NodeApiError');
		expect(run.error?.message).toMatch(/^GridBank sent a list page this node cannot read: /);
		expect(run.error?.message).toMatch(message);
	});

	test('a page without videos is an empty page (as GridBank documents)', async () => {
		sim().faults.okBodyInstead('/partner/v1/content', { next_cursor: null });
		const run = await runPartner({ operation: 'listContent', returnAll: true });
		expect(run.error).toBeUndefined();
		expect(run.items).toEqual([]);
	});

	test('with Continue On Fail the bad page becomes an error item, not characters', async () => {
		sim().faults.okBodyInstead('/partner/v1/content', { videos: 'abc' });
		const run = await runPartner(
			{ operation: 'listContent', returnAll: true },
			{ continueOnFail: true },
		);
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json.error).toMatch(/"videos" is text/);
	});
});

describe('Enterprise', () => {
	test('a search result without videos', async () => {
		sim().faults.okBodyInstead('/external/v1/videos/search', {
			search_id: 's',
			page: 1,
			per_page: 50,
			has_more: false,
		});
		const run = await runEnterprise({ resource: 'video', operation: 'search', query: 'footage' });
		expect(run.items).toEqual([]);
		expect(run.error?.message).toBe(
			'GridBank sent a search result this node cannot read: "videos" is missing, not a list of videos',
		);
	});

	test('search videos without their id are not dropped by the de-duplication', async () => {
		sim().faults.okBodyInstead('/external/v1/videos/search', {
			search_id: 's',
			page: 1,
			per_page: 50,
			has_more: false,
			videos: [{ title: 'a' }, { title: 'b' }],
		});
		const run = await runEnterprise({ resource: 'video', operation: 'search', query: 'footage' });
		expect(run.items).toEqual([]);
		expect(run.error?.message).toMatch(/video 1 of "videos" has no "id"/);
	});

	test.each([
		[
			'Video → Get, a list',
			/\/external\/v1\/videos\/[^/]+$/,
			[1, 2],
			{ resource: 'video', operation: 'get', videoId: 'Q' },
			/a video this node cannot read: the answer is a list/,
		],
		[
			'Video → Get, no id',
			/\/external\/v1\/videos\/[^/]+$/,
			{ title: 'x' },
			{ resource: 'video', operation: 'get', videoId: 'Q' },
			/a video this node cannot read: it has no "id"/,
		],
		[
			'Usage → Get, a list',
			'/usage/me',
			['a', 'b'],
			{ resource: 'usage', operation: 'get' },
			/a usage report this node cannot read: the answer is a list/,
		],
		[
			'Get Download, a list',
			'/download',
			[],
			{ resource: 'video', operation: 'getDownload', videoId: 'Q' },
			/a download link this node cannot read: the answer is a list/,
		],
	])('%s', async (_label, path, body, parameters, message) => {
		sim().faults.okBodyInstead(path, body);
		const run = await runEnterprise(parameters);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toMatch(message);
	});
});
