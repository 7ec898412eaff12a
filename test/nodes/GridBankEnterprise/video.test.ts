// Get Video, Get Download (URL only and with the file) and Get Usage against the simulator.
import { createHash } from 'node:crypto';

import { deleteBinaries, readBinary } from '../../harness/run-node';
import { fileSha256 } from '../../../simulator';
import { useSimulator } from '../../harness/simulator';
import { runEnterprise } from '../../harness/run-gridbank';

const sim = useSimulator();

let key: string;
let videoId: string;
beforeAll(() => {
	key = sim().createEnterpriseAccount({ tier: 'growth' }).key;
	[videoId] = sim().addEnterpriseVideos([
		{
			title: 'Harbor at dawn',
			description: 'Fishing boats leave the harbor',
			duration: 42,
			keywords: ['harbor', 'boats'],
			location: { city: 'Hamburg', region: 'HH', country: 'Germany' },
			creator: {
				username: 'jdoe',
				name: 'Jane Doe',
				bio: 'Filmmaker',
				profile_image: 'https://cdn.gridbank.io/u/jdoe.jpg',
			},
		},
	]);
});

describe('Get Video', () => {
	test('returns the metadata object as GridBank sends it', async () => {
		const run = await runEnterprise(
			{ resource: 'video', operation: 'get', videoId },
			{ apiKey: key },
		);
		expect(run.error).toBeUndefined();
		const {
			theme: _theme,
			popularity: _popularity,
			publishedAt: _publishedAt,
			...expected
		} = sim().getVideo(videoId)!;
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json).toEqual(expected);
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
		expect(run.calls.map((c) => c.path)).toEqual([`/external/v1/videos/${videoId}`]);
	});

	test('every nullable field null: passed on as null, no crash', async () => {
		sim().faults.nullableFieldsNull(true);
		const run = await runEnterprise(
			{ resource: 'video', operation: 'get', videoId },
			{ apiKey: key },
		);
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toEqual({
			id: videoId,
			title: null,
			description: null,
			duration: null,
			width: null,
			height: null,
			keywords: null,
			url: null,
			thumbnail: null,
			creator: { username: 'jdoe', name: null, bio: null, profile_image: null },
			location: null,
		});
	});

	test('an id with "/" is percent-encoded into the path', async () => {
		const [slashed] = sim().addEnterpriseVideos([{ id: 'team/clip_01-a' }]);
		const run = await runEnterprise(
			{ resource: 'video', operation: 'get', videoId: slashed },
			{ apiKey: key },
		);
		expect(run.error).toBeUndefined();
		expect(run.items[0].json.id).toBe('team/clip_01-a');
		expect(run.calls[0].path).toBe('/external/v1/videos/team%2Fclip_01-a');
	});

	test.each([
		['a space', 'bad id'],
		['a dot', 'clip.mov'],
		['a path trick', '../usage/me'],
		['51 characters', 'a'.repeat(51)],
		['an encoded slash', 'a%2Fb'],
	])('an id with %s is refused before any request', async (_, bad) => {
		const run = await runEnterprise(
			{ resource: 'video', operation: 'get', videoId: bad },
			{ apiKey: key },
		);
		expect(run.error?.message).toMatch(/Video ID .* is not a valid video id|Video ID is too long/);
		expect(run.calls).toHaveLength(0);
	});
});

describe('Get Download', () => {
	test('returns the download object; expires_in and search_id go on the wire', async () => {
		const before = Date.now();
		const run = await runEnterprise(
			{
				resource: 'video',
				operation: 'getDownload',
				videoId,
				expiresIn: 3,
				searchId: 'srch_from_search',
			},
			{ apiKey: key },
		);
		expect(run.error).toBeUndefined();
		expect(run.calls).toHaveLength(1);
		expect(run.calls[0].path).toBe(`/external/v1/videos/${videoId}/download`);
		expect(run.calls[0].query).toEqual({ expires_in: '3', search_id: 'srch_from_search' });
		expect(run.storage).toHaveLength(0);
		const json = run.items[0].json;
		expect(Object.keys(json).sort()).toEqual([
			'expires_at',
			'file_size',
			'format',
			'url',
			'video_id',
		]);
		expect(json.video_id).toBe(videoId);
		expect(json.file_size).toBe(sim().getVideoFile(videoId).size);
		expect(json.url).toMatch(new RegExp(`^${sim().storageUrl}/`));
		const expiresAt = Date.parse(json.expires_at as string);
		expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3 * 60_000 - 1000);
		expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3 * 60_000);
		expect(run.items[0].binary).toBeUndefined();
	});

	test('defaults: expires_in 5, no search_id', async () => {
		const run = await runEnterprise(
			{ resource: 'video', operation: 'getDownload', videoId },
			{ apiKey: key },
		);
		expect(run.calls[0].query).toEqual({ expires_in: '5' });
	});

	test.each([0, 6, 2.5])('expiresIn %s is refused before any request', async (expiresIn) => {
		const run = await runEnterprise(
			{ resource: 'video', operation: 'getDownload', videoId, expiresIn },
			{ apiKey: key },
		);
		expect(run.error?.message).toMatch(/Expires In must be a whole number from 1 to 5/);
		expect(run.calls).toHaveLength(0);
	});

	test('with download: the file in the binary property, size and checksum as stored, no key at storage', async () => {
		const size = 3 * 1024 * 1024 + 123;
		sim().setVideoFile(videoId, {
			size,
			contentType: 'video/quicktime',
			fileName: 'Harbor at dawn.mov',
			disposition: 'filename*',
		});
		const run = await runEnterprise(
			{
				resource: 'video',
				operation: 'getDownload',
				videoId,
				download: true,
				binaryPropertyName: 'master',
			},
			{ apiKey: key },
		);
		try {
			expect(run.error).toBeUndefined();
			const item = run.items[0];
			expect(item.json).toMatchObject({
				video_id: videoId,
				file_size: size,
				format: expect.any(String),
				fileName: 'Harbor at dawn.mov',
				mimeType: 'video/quicktime',
				fileSize: size,
			});
			const binary = item.binary?.master;
			expect(binary?.fileName).toBe('Harbor at dawn.mov');
			expect(binary?.mimeType).toBe('video/quicktime');
			expect(binary?.id).toBeDefined();
			const stored = await readBinary(item, 'master');
			expect(stored.length).toBe(size);
			expect(createHash('sha256').update(stored).digest('hex')).toBe(fileSha256(videoId, size));
			expect(run.calls).toHaveLength(1);
			expect(run.storage).toHaveLength(1);
			expect(run.storage[0].headers.authorization).toBeUndefined();
			expect(JSON.stringify(run.storage[0].headers)).not.toContain(key);
		} finally {
			await deleteBinaries(run);
		}
	});

	test('a URL storage refuses is replaced once by a fresh one', async () => {
		sim().setVideoFile(videoId, { size: 200_000 });
		sim().faults.expireUrlsEarly(1);
		const run = await runEnterprise(
			{ resource: 'video', operation: 'getDownload', videoId, download: true },
			{ apiKey: key },
		);
		try {
			expect(run.error).toBeUndefined();
			expect(run.calls).toHaveLength(2);
			// Storage may answer the second request 200 or 206 (a range from byte 0).
			expect(run.storage.map((s) => Math.floor(s.status / 100))).toEqual([4, 2]);
			expect(run.storage[0].status).toBe(403);
			// The item describes the URL actually used: the second one.
			const used = new URL(String(run.items[0].json.url));
			expect(Object.fromEntries(used.searchParams)).toEqual(run.storage[1].query);
			expect(run.storage[0].query).not.toEqual(run.storage[1].query);
			expect(run.items[0].json.fileSize).toBe(200_000);
		} finally {
			await deleteBinaries(run);
		}
	});

	test.each([
		['a body cut short of its Content-Length', () => sim().faults.cutDownloadAfter(100_000, 5)],
		[
			'a body that declares and sends less than file_size',
			() => sim().faults.declareWrongLength(-100_000, 5),
		],
	])('%s fails the item instead of passing a short file on', async (_, fault) => {
		sim().setVideoFile(videoId, { size: 500_000 });
		fault();
		const run = await runEnterprise(
			{
				resource: 'video',
				operation: 'getDownload',
				videoId,
				download: true,
				options: { maxRetries: 0 },
			},
			{ apiKey: key },
		);
		try {
			// Whichever check catches it (the transfer's length or the announced file_size), the item fails.
			expect(run.error?.message).toMatch(/cut off|incomplete|announced/);
			expect(run.items).toEqual([]);
			expect(run.storage.length).toBeGreaterThan(0);
		} finally {
			await deleteBinaries(run);
		}
	});
});

describe('Get Usage', () => {
	test('the usage object with its top_videos', async () => {
		const account = sim().createEnterpriseAccount({ tier: 'scale' }).key;
		const [a, b] = sim().addEnterpriseVideos([{}, {}]);
		for (const id of [a, b, a])
			expect(
				(
					await runEnterprise(
						{ resource: 'video', operation: 'getDownload', videoId: id },
						{ apiKey: account },
					)
				).error,
			).toBeUndefined();

		const run = await runEnterprise({ resource: 'usage', operation: 'get' }, { apiKey: account });
		expect(run.error).toBeUndefined();
		expect(run.calls.map((c) => c.path)).toEqual(['/external/v1/usage/me']);
		const usage = run.items[0].json;
		expect(usage).toEqual({
			customer_id: expect.stringMatching(/^cust_/),
			tier: 'scale',
			lease_period_start: expect.stringMatching(/^\d{4}-\d\d-\d\dT00:00:00Z$/),
			lease_period_end: expect.stringMatching(/^\d{4}-\d\d-\d\dT00:00:00Z$/),
			downloads_this_period: 3,
			active_collections_count: 1,
			wildcard_enabled: false,
			top_videos: [
				{ video_id: a, download_count: 2, thumbnail: sim().getVideo(a)?.thumbnail },
				{ video_id: b, download_count: 1, thumbnail: sim().getVideo(b)?.thumbnail },
			],
		});
		expect(Date.parse(usage.lease_period_start as string)).toBeLessThan(
			Date.parse(usage.lease_period_end as string),
		);
	});

	test('works without an active subscription (only metadata and download need one)', async () => {
		const account = sim().createEnterpriseAccount({ subscription: false }).key;
		const run = await runEnterprise({ resource: 'usage', operation: 'get' }, { apiKey: account });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json.top_videos).toEqual([]);
	});
});

describe('Get Download with an expires_at already past (ISO 8601 read as a time)', () => {
	// A GridBank whose clock runs ten minutes behind n8n's: every expires_at it sends is already
	// past by n8n's clock. Its own storage still accepts the URLs for their five minutes.
	const lagging = useSimulator({ now: () => Date.now() - 10 * 60_000 });

	test.each([
		["its lifetime read against the answer's own Date header: the URL is used as is", true, 1],
		['without a Date header: a fresh URL is asked for once before storage is contacted', false, 2],
	] as const)('%s', async (_name, dateHeader, urls) => {
		lagging().faults.omitDateHeader(!dateHeader);
		const account = lagging().createEnterpriseAccount().key;
		const [id] = lagging().addEnterpriseVideos([{}]);
		lagging().setVideoFile(id, { size: 70_000 });
		const run = await runEnterprise(
			{ resource: 'video', operation: 'getDownload', videoId: id, download: true },
			{ apiKey: account, sim: lagging() },
		);
		try {
			expect(run.error).toBeUndefined();
			expect(Date.parse(run.items[0].json.expires_at as string)).toBeLessThan(Date.now());
			expect(run.calls.map((c) => c.path)).toEqual(
				Array.from({ length: urls }, () => `/external/v1/videos/${id}/download`),
			);
			expect(run.storage.map((e) => e.status)).toEqual([206]);
			expect(run.items[0].json.fileSize).toBe(70_000);
		} finally {
			await deleteBinaries(run);
		}
	});
});
