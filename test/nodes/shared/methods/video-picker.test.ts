// The video pickers as the editor runs them: each node's listSearch method through n8n-core's
// LoadOptionsContext against the simulator (filter, paging tokens, order, request cost), the
// "By ID" check through n8n's own parameter-issue code, and workflows that hold the old plain
// string or either picker mode still running through the real engine.
import type { INode, INodeProperties } from 'n8n-workflow';

import { GridBankEnterprise } from '../../../../nodes/GridBankEnterprise/GridBankEnterprise.node';
import { GridBankPartner } from '../../../../nodes/GridBankPartner/GridBankPartner.node';
import {
	PICKER_MAX_PAGES,
	PICKER_MIN_MATCHES,
} from '../../../../nodes/shared/methods/video-picker';
import { requireVideoId, VIDEO_ID_REGEX } from '../../../../nodes/shared/validate';
import { runEnterprise, runPartner } from '../../../harness/run-gridbank';
import { coreMajor, nodeParameterIssues } from '../../../harness/engine';
import { listSearch, listSearchAll } from '../../../harness/list-search';
import { apiCalls, useSimulator } from '../../../harness/simulator';
import { DEMO_ENTERPRISE_KEY, DEMO_PARTNER_KEY } from '../../../../simulator';
import { addKeywordVideos } from '../../GridBankEnterprise/enterprise-harness';

const sim = useSimulator();

const partnerCredentials = (apiKey = DEMO_PARTNER_KEY) => ({
	gridBankPartnerApi: { apiKey, baseUrl: sim().baseUrl },
});
const enterpriseCredentials = (apiKey = DEMO_ENTERPRISE_KEY) => ({
	gridBankEnterpriseApi: { apiKey, baseUrl: sim().baseUrl },
});

const partnerPicker = (
	options: { filter?: string; paginationToken?: string; apiKey?: string } = {},
) =>
	listSearch({
		type: 'gridBankPartner',
		method: 'searchLicensedVideos',
		path: 'parameters.videoKey',
		parameters: { operation: 'getDownloadUrl', videoKey: { __rl: true, mode: 'list', value: '' } },
		credentials: partnerCredentials(options.apiKey),
		filter: options.filter,
		paginationToken: options.paginationToken,
	});

const enterprisePicker = (options: { filter?: string; paginationToken?: string } = {}) =>
	listSearch({
		type: 'gridBankEnterprise',
		method: 'searchVideos',
		path: 'parameters.videoId',
		parameters: {
			resource: 'video',
			operation: 'get',
			videoId: { __rl: true, mode: 'list', value: '' },
		},
		credentials: enterpriseCredentials(),
		filter: options.filter,
		paginationToken: options.paginationToken,
	});

const listRequests = () => apiCalls(sim(), '/partner/v1/content');
const searchRequests = () => apiCalls(sim(), '/external/v1/videos/search');

/** What the picker should match: the title or the key contains the typed text, any case. */
const matches = (key: string, text: string) =>
	`${sim().getVideo(key)?.title ?? ''} ${key}`.toLowerCase().includes(text.toLowerCase());

describe('Partner "From list": the licensed library, newest first, paged by cursor', () => {
	test('no filter: 100 per request, the cursor as the token, every licence once in list order', async () => {
		sim().clearLog();
		const expected = sim()
			.partnerLicences(DEMO_PARTNER_KEY)
			.map((licence) => licence.video_key);
		const { pages, values } = await listSearchAll({
			type: 'gridBankPartner',
			method: 'searchLicensedVideos',
			path: 'parameters.videoKey',
			parameters: { operation: 'getDownloadUrl' },
			credentials: partnerCredentials(),
		});
		expect(values).toEqual(expected);
		expect(pages).toHaveLength(Math.ceil(expected.length / 100));
		expect(
			pages
				.slice(0, -1)
				.every((page) => page.results.length === 100 && typeof page.paginationToken === 'string'),
		).toBe(true);
		expect(pages.at(-1)?.paginationToken).toBeUndefined();
		// One request per page, and the token is handed back to the API unchanged.
		const calls = listRequests();
		expect(calls).toHaveLength(pages.length);
		expect(calls.map((call) => call.query.per_page)).toEqual(pages.map(() => '100'));
		expect(calls.slice(1).map((call) => call.query.cursor)).toEqual(
			pages.slice(0, -1).map((page) => page.paginationToken),
		);
	});

	test('a row: title, duration, licence date and key; the value is the key; the link is the preview', async () => {
		const [newest] = sim().partnerLicences(DEMO_PARTNER_KEY);
		const video = sim().getVideo(newest.video_key);
		const { results } = await partnerPicker();
		const row = results[0];
		expect(row.value).toBe(newest.video_key);
		expect(row.name).toContain(video?.title ?? newest.video_key);
		expect(row.name).toContain(newest.video_key);
		expect(row.name).toContain(
			`licensed ${new Date(newest.purchased_at * 1000).toISOString().slice(0, 10)}`,
		);
		expect(row.name).toMatch(/ · \d+:\d\d · /);
		expect(row.url).toBe(video?.url);
	});

	test('typed text filters by title, reading on until enough match, and the cursor continues from there', async () => {
		const licences = sim()
			.partnerLicences(DEMO_PARTNER_KEY)
			.map((licence) => licence.video_key);
		// A title word common enough to fill a first answer within 3 pages, rare enough to need more than one.
		const words = [
			...new Set(
				licences.slice(0, 50).flatMap((key) => String(sim().getVideo(key)?.title).split(' ')),
			),
		];
		const word = words.find((candidate) => {
			const found = licences.filter((key) => matches(key, candidate));
			const inFirst = (n: number) => found.filter((key) => licences.indexOf(key) < n * 100).length;
			return (
				inFirst(1) < PICKER_MIN_MATCHES &&
				inFirst(3) >= PICKER_MIN_MATCHES &&
				found.length < licences.length / 2
			);
		}) as string;
		expect(word).toBeDefined();
		const expected = licences.filter((key) => matches(key, word));
		expect(expected.length).toBeGreaterThan(PICKER_MIN_MATCHES);
		expect(expected.length).toBeLessThan(licences.length / 2);

		sim().clearLog();
		const first = await partnerPicker({ filter: word.toUpperCase() });
		expect(first.results.length).toBeGreaterThanOrEqual(PICKER_MIN_MATCHES);
		expect(first.results.map((row) => row.value)).toEqual(expected.slice(0, first.results.length));
		expect(first.paginationToken).toEqual(expect.any(String));
		const pagesRead = listRequests().length;
		expect(pagesRead).toBeLessThanOrEqual(PICKER_MAX_PAGES);
		// It stopped as soon as it had enough: one page fewer would not have been.
		const inFirstPages = (n: number) =>
			licences.slice(0, n * 100).filter((key) => matches(key, word)).length;
		expect(inFirstPages(pagesRead - 1)).toBeLessThan(PICKER_MIN_MATCHES);

		const { values } = await listSearchAll({
			type: 'gridBankPartner',
			method: 'searchLicensedVideos',
			parameters: { operation: 'getDownloadUrl' },
			credentials: partnerCredentials(),
			filter: word,
		});
		expect(values).toEqual(expected);
	});

	test('a rare match reads at most 5 pages per call and says there is more', async () => {
		const licences = sim()
			.partnerLicences(DEMO_PARTNER_KEY)
			.map((licence) => licence.video_key);
		const last = licences.at(-1) as string;
		sim().clearLog();
		const first = await partnerPicker({ filter: last });
		expect(first.results).toEqual([]);
		expect(listRequests()).toHaveLength(PICKER_MAX_PAGES);
		expect(first.paginationToken).toEqual(expect.any(String));
		const { values } = await listSearchAll({
			type: 'gridBankPartner',
			method: 'searchLicensedVideos',
			parameters: {},
			credentials: partnerCredentials(),
			filter: last,
		});
		expect(values).toEqual([last]);
	});

	test('a key typed into the search finds that video; nothing matching ends the list', async () => {
		const { key } = sim().createPartnerAccount({ licences: 30 });
		const keys = sim()
			.partnerLicences(key)
			.map((licence) => licence.video_key);
		const byKey = await partnerPicker({ apiKey: key, filter: keys[12] });
		expect(byKey.results.map((row) => row.value)).toContain(keys[12]);
		expect(byKey.paginationToken).toBeUndefined();
		const none = await partnerPicker({ apiKey: key, filter: 'zz-no-such-title-zz' });
		expect(none).toEqual({ results: [], paginationToken: undefined });
	});

	test('an account without licences shows an empty list', async () => {
		const { key } = sim().createPartnerAccount({ licences: 0 });
		expect(await partnerPicker({ apiKey: key })).toEqual({
			results: [],
			paginationToken: undefined,
		});
	});

	test('a cursor the API no longer accepts ends the list instead of repeating it', async () => {
		sim().clearLog();
		expect(await partnerPicker({ paginationToken: 'not-a-cursor' })).toEqual({ results: [] });
		expect(listRequests().map((call) => call.status)).toEqual([400]);
	});

	test('a revoked or wrong key fails with the credential message the editor shows', async () => {
		await expect(partnerPicker({ apiKey: 'apik_nobody.not-a-key' })).rejects.toMatchObject({
			message: expect.stringMatching(/key is missing, malformed or revoked/),
			httpCode: '401',
		});
	});
});

describe('Enterprise "From list": search as the user types, paged by page number', () => {
	test('nothing typed: no request, no rows (the editor asks for words first)', async () => {
		sim().clearLog();
		expect(await enterprisePicker()).toEqual({ results: [] });
		expect(await enterprisePicker({ filter: '   ' })).toEqual({ results: [] });
		expect(searchRequests()).toEqual([]);
	});

	test('typed words are the query; 80 per page; the next page number is the token until has_more ends', async () => {
		const { keyword, ids } = addKeywordVideos(sim(), 100);
		sim().clearLog();
		const first = await enterprisePicker({ filter: `  ${keyword} ` });
		expect(first.results.map((row) => row.value)).toEqual(ids.slice(0, 80));
		expect(first.paginationToken).toBe('2');
		const second = await enterprisePicker({
			filter: keyword,
			paginationToken: first.paginationToken,
		});
		expect(second.results.map((row) => row.value)).toEqual(ids.slice(80));
		expect(second.paginationToken).toBeUndefined();
		expect(searchRequests().map((call) => call.query)).toEqual([
			{ q: keyword, page: '1', per_page: '80' },
			{ q: keyword, page: '2', per_page: '80' },
		]);
	});

	test('a row: title, duration, size and ID; the link is the preview', async () => {
		const { keyword, ids } = addKeywordVideos(sim(), 1, {
			title: 'Harbour at dusk',
			duration: 75.4,
			width: 3840,
			height: 2160,
		});
		const { results } = await enterprisePicker({ filter: keyword });
		expect(results).toEqual([
			{
				name: `Harbour at dusk · 1:15 · 3840×2160 · ${ids[0]}`,
				value: ids[0],
				url: sim().getVideo(ids[0])?.url,
			},
		]);
	});

	test('page 100 is the last the API serves: no token past it', async () => {
		const last = await enterprisePicker({ filter: 'footage', paginationToken: '100' });
		expect(last.results.length).toBe(80);
		expect(last.paginationToken).toBeUndefined();
	});

	test('typed text beyond the API bound is cut to 200 characters', async () => {
		sim().clearLog();
		await enterprisePicker({ filter: 'x'.repeat(250) });
		expect(searchRequests()[0].query.q).toBe('x'.repeat(200));
	});
});

describe('"By ID": n8n\'s own parameter check uses the same rules as the node', () => {
	const partnerNode = new GridBankPartner().description;
	const enterpriseNode = new GridBankEnterprise().description;

	/**
	 * n8n's parameter issues for a node holding `value` in "By ID" mode (the check the editor and
	 * the engine run). `parameters` holds the resource too, as n8n fills defaults in before the check.
	 */
	const issues = (
		description: typeof partnerNode,
		parameters: Record<string, unknown>,
		name: string,
		value: string,
	) => {
		const node: INode = {
			id: '1',
			name: 'n',
			type: description.name,
			typeVersion: 1,
			position: [0, 0],
			parameters: { ...parameters, [name]: { __rl: true, mode: 'id', value } },
		} as INode;
		return (
			nodeParameterIssues(description.properties as INodeProperties[], node, description)
				?.parameters?.[name] ?? []
		);
	};
	const accepts = (check: () => unknown) => {
		try {
			check();
			return true;
		} catch {
			return false;
		}
	};

	const samples = [
		'gbv-3fK9xQ2m',
		'Q',
		'ocean/aerial_shot-0001',
		'stock-footage_extended-collection/master-4k-000003',
		'x'.repeat(51),
		'  padded-key  ',
		'',
		'   ',
		'/leading',
		'trailing/',
		'a//b',
		'a/./b',
		'a/../b',
		'..',
		'.',
		'a/..',
		'a.../b',
		'has space',
		'back\\slash',
		'enc%2Fslash',
		'enc%5cslash',
		'tab\tinside',
		'dots.in.name',
		'ümlaut',
		'a'.repeat(50),
	];

	test.each(samples)('Partner video key %j: the editor and the node agree', (value) => {
		const node = accepts(() =>
			requireVideoId({ node: {} as INode, itemIndex: 0 }, value, 'Video Key'),
		);
		const editor =
			issues(partnerNode, { resource: 'video', operation: 'getDownloadUrl' }, 'videoKey', value)
				.length === 0;
		// An empty value is "required", not a format problem: n8n reports it either way.
		expect(editor).toBe(node);
	});

	test.each(samples)('Enterprise video ID %j: the editor and the node agree', (value) => {
		const node = accepts(() =>
			requireVideoId({ node: {} as INode, itemIndex: 0 }, value, 'Video ID', VIDEO_ID_REGEX),
		);
		const editor =
			issues(enterpriseNode, { resource: 'video', operation: 'get' }, 'videoId', value).length ===
			0;
		expect(editor).toBe(node);
	});

	test('each mode says what a valid value looks like', () => {
		for (const [description, name] of [
			[partnerNode, 'videoKey'],
			[enterpriseNode, 'videoId'],
		] as const) {
			const locator = description.properties.find((p) => p.name === name) as INodeProperties;
			expect(locator.type).toBe('resourceLocator');
			expect(locator.default).toEqual({ mode: 'list', value: '' });
			const byId = locator.modes?.find((mode) => mode.name === 'id');
			expect(byId?.placeholder).toMatch(/^e\.g\. \S+$/);
			const example = String(byId?.placeholder).slice('e.g. '.length);
			expect(
				issues(
					description,
					name === 'videoKey'
						? { resource: 'video', operation: 'getDownloadUrl' }
						: { resource: 'video', operation: 'get' },
					name,
					example,
				),
			).toEqual([]);
			expect(locator.description).toContain(example);
		}
	});
});

describe('saved workflows run whatever the picker holds', () => {
	const partnerDownloadUrl = async (videoKey: unknown) =>
		await runPartner({ operation: 'getDownloadUrl', videoKey });
	const enterpriseGet = async (videoId: unknown) =>
		await runEnterprise({ resource: 'video', operation: 'get', videoId });

	test('a workflow saved before the picker (plain string) still runs, on both nodes', async () => {
		const [newest] = sim().partnerLicences(DEMO_PARTNER_KEY);
		sim().clearLog();
		const partner = await partnerDownloadUrl(newest.video_key);
		expect(partner.error).toBeUndefined();
		expect(partner.items[0].json).toMatchObject({
			video_key: newest.video_key,
			url: expect.any(String),
		});
		expect(apiCalls(sim(), '/download')[0].path).toBe(
			`/partner/v1/videos/${encodeURIComponent(newest.video_key)}/download`,
		);

		const enterprise = await enterpriseGet('ocean/aerial_shot-0001');
		expect(enterprise.error).toBeUndefined();
		expect(enterprise.items[0].json.id).toBe('ocean/aerial_shot-0001');
	});

	test('an old string still goes through the old checks', async () => {
		sim().clearLog();
		const bad = await partnerDownloadUrl('a/../b');
		expect(bad.error?.message).toMatch(/is not a valid video id/);
		const badId = await enterpriseGet('bad id!');
		expect(badId.error?.message).toMatch(/is not a valid video id/);
		expect(sim().log.filter((entry) => entry.target === 'api')).toEqual([]);
	});

	test('"From list" and "By ID" values run, on both nodes', async () => {
		const [newest] = sim().partnerLicences(DEMO_PARTNER_KEY);
		const fromList = await partnerDownloadUrl({
			__rl: true,
			mode: 'list',
			value: newest.video_key,
			cachedResultName: 'A title',
		});
		expect(fromList.items[0].json.video_key).toBe(newest.video_key);
		const byId = await partnerDownloadUrl({ __rl: true, mode: 'id', value: newest.video_key });
		expect(byId.items[0].json.video_key).toBe(newest.video_key);

		const listed = await enterpriseGet({
			__rl: true,
			mode: 'list',
			value: 'Q',
			cachedResultName: 'Q',
		});
		expect(listed.items[0].json.id).toBe('Q');
		const typed = await enterpriseGet({ __rl: true, mode: 'id', value: 'city_night-timelapse_4k' });
		expect(typed.items[0].json.id).toBe('city_night-timelapse_4k');
	});

	test('an expression in "By ID" is resolved per item, then checked', async () => {
		const keys = sim()
			.partnerLicences(DEMO_PARTNER_KEY)
			.slice(0, 2)
			.map((licence) => licence.video_key);
		const run = await runPartner(
			{
				operation: 'getDownloadUrl',
				videoKey: { __rl: true, mode: 'id', value: '={{ $json.key }}' },
			},
			{ input: [{ key: keys[0] }, { key: keys[1] }, { key: '' }], continueOnFail: true },
		);
		expect(run.items.map((item) => item.json.video_key ?? item.json.error)).toEqual([
			keys[0],
			keys[1],
			'Video Key is empty',
		]);
	});

	test('"From list" with nothing picked: n8n itself refuses to start, naming the parameter', async () => {
		sim().clearLog();
		// n8n 1.x refuses both too, without naming the parameter (its editor marks it before a run).
		const legacy = coreMajor < 2 ? /The workflow has issues/ : undefined;
		await expect(partnerDownloadUrl({ __rl: true, mode: 'list', value: '' })).rejects.toThrow(
			legacy ?? /Parameter "Video Key" is required/,
		);
		await expect(partnerDownloadUrl({ __rl: true, mode: 'id', value: 'a/../b' })).rejects.toThrow(
			legacy ?? /A video key is 1-50 characters/,
		);
		expect(sim().log.filter((entry) => entry.target === 'api')).toEqual([]);
	});
});
