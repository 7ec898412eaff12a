// Output Format on every operation that has it (List Licensed Content, Search, Get Video and
// the Partner Trigger), through the real engine against the simulator: "API Fields" leaves
// GridBank's items untouched; "Video" gives the SDKs' shape, the same for both APIs, with the
// fields the node adds (search_id, the downloaded file's details) kept after the video's own.
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { storedBytes } from '../../../harness/engine';
import { useSimulator } from '../../../harness/simulator';
import { pollTrigger, runEnterprise, runPartner } from '../../../harness/run-gridbank';
import { DEMO_PARTNER_KEY, fileSha256 } from '../../../../simulator';
import { addKeywordVideos } from '../../GridBankEnterprise/enterprise-harness';
import { nowSeconds } from '../../GridBankPartnerTrigger/helpers';

const sim = useSimulator();

const VIDEO_FIELDS = [
	'id',
	'title',
	'duration',
	'url',
	'thumbnail',
	'creator',
	'purchasedAt',
	'description',
	'width',
	'height',
	'location',
	'keywords',
];
const CREATOR_FIELDS = ['id', 'username', 'name', 'bio', 'profileImage'];

const json = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => item.json);

/** The SDK mapping of a Partner list item, written out by hand from docs/gridbank-api.md#sdk-field-names. */
const partnerAsVideo = (item: IDataObject) => {
	const creator = item.creator as IDataObject;
	return {
		id: item.video_key,
		title: item.title,
		duration: item.duration_seconds,
		url: item.preview_url,
		thumbnail: item.thumbnail_url,
		creator: {
			id: creator.id,
			username: creator.username,
			name: creator.name,
			bio: null,
			profileImage: null,
		},
		purchasedAt: item.purchased_at,
		description: null,
		width: null,
		height: null,
		location: null,
		keywords: null,
	};
};

/** The SDK mapping of Enterprise metadata (search results carry the same shape). */
const enterpriseAsVideo = (item: IDataObject) => {
	const creator = item.creator as IDataObject;
	return {
		id: item.id,
		title: item.title,
		duration: item.duration,
		url: item.url,
		thumbnail: item.thumbnail,
		creator: {
			id: null,
			username: creator.username,
			name: creator.name,
			bio: creator.bio,
			profileImage: creator.profile_image,
		},
		purchasedAt: null,
		description: item.description,
		width: item.width,
		height: item.height,
		location: item.location,
		keywords: item.keywords,
	};
};

describe('List Licensed Content', () => {
	test('"API Fields" is the default and leaves items as GridBank sends them', async () => {
		const plain = await runPartner({ operation: 'listContent', limit: 5 });
		const api = await runPartner({
			operation: 'listContent',
			limit: 5,
			options: { outputFormat: 'api' },
		});
		expect(json(api.items)).toEqual(json(plain.items));
		expect(Object.keys(plain.items[0].json)).toEqual([
			'video_key',
			'title',
			'duration_seconds',
			'purchased_at',
			'preview_url',
			'thumbnail_url',
			'creator',
		]);
	});

	test('"Video": the SDK fields in the SDK order, nulls for what the Partner API lacks, items still paired', async () => {
		const api = await runPartner({ operation: 'listContent', limit: 5 });
		const video = await runPartner({
			operation: 'listContent',
			limit: 5,
			options: { outputFormat: 'video' },
		});
		expect(video.error).toBeUndefined();
		expect(json(video.items)).toEqual(json(api.items).map(partnerAsVideo));
		for (const item of video.items) {
			expect(Object.keys(item.json)).toEqual(VIDEO_FIELDS);
			expect(Object.keys(item.json.creator as IDataObject)).toEqual(CREATOR_FIELDS);
			expect(item.pairedItem).toEqual({ item: 0 });
		}
	});

	test('"Video" with Purchased After and Return All: the same videos, only reshaped', async () => {
		const { key } = sim().createPartnerAccount({ licences: 120 });
		const api = await runPartner({ operation: 'listContent', returnAll: true }, { apiKey: key });
		const video = await runPartner(
			{ operation: 'listContent', returnAll: true, options: { outputFormat: 'video' } },
			{ apiKey: key },
		);
		expect(json(video.items).map((item) => item.id)).toEqual(
			json(api.items).map((item) => item.video_key),
		);
	});

	test('null fields stay null, and fields the API adds beyond its spec are left out of "Video" only', async () => {
		sim().faults.nullableFieldsNull(true);
		const nulls = await runPartner({
			operation: 'listContent',
			limit: 2,
			options: { outputFormat: 'video' },
		});
		expect(nulls.items[0].json).toMatchObject({
			title: null,
			duration: null,
			url: null,
			thumbnail: null,
			purchasedAt: null,
		});
		expect(nulls.items[0].json.id).toEqual(expect.any(String));
		sim().faults.clear();
		sim().faults.extraFields(true);
		const api = await runPartner({ operation: 'listContent', limit: 2 });
		const video = await runPartner({
			operation: 'listContent',
			limit: 2,
			options: { outputFormat: 'video' },
		});
		expect(api.items[0].json.licence_type).toBe('standard');
		expect(Object.keys(video.items[0].json)).toEqual(VIDEO_FIELDS);
		expect(Object.keys(video.items[0].json.creator as IDataObject)).toEqual(CREATOR_FIELDS);
	});

	test('an expression that gives something else is refused, naming the two values', async () => {
		const run = await runPartner({
			operation: 'listContent',
			limit: 1,
			options: { outputFormat: '={{ "sdk" }}' },
		});
		expect(run.error?.message).toBe('Output Format "sdk" is not one of api, video');
		expect(sim().log.filter((entry) => entry.target === 'api')).toEqual([]);
	});
});

describe('Enterprise Search and Get Video', () => {
	test('Search, "Video": the SDK shape with search_id kept after it', async () => {
		const { keyword } = addKeywordVideos(sim(), 3);
		const api = await runEnterprise({ resource: 'video', operation: 'search', query: keyword });
		const video = await runEnterprise({
			resource: 'video',
			operation: 'search',
			query: keyword,
			options: { outputFormat: 'video' },
		});
		// Every search gets its own search_id from GridBank; each item carries its run's.
		const searchId = video.items[0].json.search_id;
		expect(searchId).toMatch(/^\S+$/);
		expect(json(video.items)).toEqual(
			json(api.items).map((item) => ({ ...enterpriseAsVideo(item), search_id: searchId })),
		);
		for (const item of video.items)
			expect(Object.keys(item.json)).toEqual([...VIDEO_FIELDS, 'search_id']);
	});

	test('Get Video, both formats', async () => {
		const api = await runEnterprise({
			resource: 'video',
			operation: 'get',
			videoId: 'ocean/aerial_shot-0001',
		});
		expect(api.items[0].json).toMatchObject({
			id: 'ocean/aerial_shot-0001',
			location: expect.any(Object),
			keywords: expect.any(Array),
		});
		const video = await runEnterprise({
			resource: 'video',
			operation: 'get',
			videoId: { __rl: true, mode: 'id', value: 'ocean/aerial_shot-0001' },
			options: { outputFormat: 'video' },
		});
		expect(video.items[0].json).toEqual(enterpriseAsVideo(api.items[0].json));
		expect(Object.keys(video.items[0].json)).toEqual(VIDEO_FIELDS);
	});

	test('Get Video, "Video", a video with no location or description: null, not missing', async () => {
		const { ids } = addKeywordVideos(sim(), 1, {
			location: null,
			description: null,
			keywords: null,
		});
		const video = await runEnterprise({
			resource: 'video',
			operation: 'get',
			videoId: ids[0],
			options: { outputFormat: 'video' },
		});
		expect(video.items[0].json).toMatchObject({
			location: null,
			description: null,
			keywords: null,
			purchasedAt: null,
		});
	});
});

test('one shape: the same video from Partner and from Enterprise has the same keys and shared values', async () => {
	const [newest] = sim().partnerLicences(DEMO_PARTNER_KEY);
	const fromPartner = (
		await runPartner({ operation: 'listContent', limit: 1, options: { outputFormat: 'video' } })
	).items[0].json;
	const fromEnterprise = (
		await runEnterprise({
			resource: 'video',
			operation: 'get',
			videoId: newest.video_key,
			options: { outputFormat: 'video' },
		})
	).items[0].json;
	expect(Object.keys(fromPartner)).toEqual(Object.keys(fromEnterprise));
	for (const field of ['id', 'title', 'duration', 'url', 'thumbnail'])
		expect({ field, value: fromPartner[field] }).toEqual({ field, value: fromEnterprise[field] });
	expect((fromPartner.creator as IDataObject).username).toBe(
		(fromEnterprise.creator as IDataObject).username,
	);
	expect(fromPartner.purchasedAt).toBe(newest.purchased_at);
	expect(fromEnterprise.purchasedAt).toBeNull();
});

describe('Partner Trigger', () => {
	const settled = () => nowSeconds() - 3600;

	test('"Fetch Test Event": the newest licence in either format', async () => {
		const { key } = sim().createPartnerAccount({ licences: 3 });
		const api = await pollTrigger({}, { apiKey: key }).manual();
		const video = await pollTrigger(
			{ options: { outputFormat: 'video' } },
			{ apiKey: key },
		).manual();
		expect(video.error).toBeUndefined();
		expect(json(video.items)).toEqual(json(api.items).map(partnerAsVideo));
	});

	test('polls emit "Video" items; what the trigger remembers is unchanged', async () => {
		const { key } = sim().createPartnerAccount({ licences: 3 });
		const trigger = pollTrigger({ options: { outputFormat: 'video' } }, { apiKey: key });
		await trigger.activate();
		const bought = sim().addPartnerLicences(key, 2, { purchasedAt: settled() });
		const poll = await trigger.tick();
		expect(poll.error).toBeUndefined();
		expect(json(poll.items).map((item) => item.id)).toEqual(bought);
		for (const item of json(poll.items)) expect(Object.keys(item)).toEqual(VIDEO_FIELDS);
		expect(trigger.nodeState?.keys).toEqual(expect.arrayContaining(bought));
		expect((await trigger.tick()).items).toBeNull();
	});

	test('with Download File, "Video" items keep fileName, mimeType, fileSize, sha256 and transfer after the video fields, and the file', async () => {
		const { key } = sim().createPartnerAccount({ licences: 1 });
		const trigger = pollTrigger(
			{ download: true, options: { outputFormat: 'video' } },
			{ apiKey: key },
		);
		await trigger.activate();
		const [bought] = sim().addPartnerLicences(key, 1, { purchasedAt: settled() });
		sim().setVideoFile(bought, {
			size: 200_001,
			fileName: 'harbour.mov',
			contentType: 'video/quicktime',
		});
		const poll = await trigger.tick();
		expect(poll.error).toBeUndefined();
		const [item] = poll.items as INodeExecutionData[];
		expect(Object.keys(item.json)).toEqual([
			...VIDEO_FIELDS,
			'fileName',
			'mimeType',
			'fileSize',
			'sha256',
			'transfer',
		]);
		expect(item.json).toMatchObject({
			id: bought,
			fileName: 'harbour.mov',
			mimeType: 'video/quicktime',
			fileSize: 200_001,
			sha256: fileSha256(bought, 200_001),
			transfer: expect.objectContaining({ connections: 1, resumes: 0, contentCheck: null }),
		});
		expect(item.binary?.data).toMatchObject({ fileName: 'harbour.mov' });
		expect(await storedBytes(item.binary?.data)).toBe(200_001);
	});
});
