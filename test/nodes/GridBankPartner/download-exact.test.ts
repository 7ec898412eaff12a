// Downloads are byte-exact or refused: every 206 placed where asked, a resume storage answers
// with the whole file restarts from byte 0, no page or empty body stored as the video, and
// only https (or loopback http) signed URLs fetched. Through n8n's real engine.
import { DEMO_PARTNER_KEY, fileSha256 } from '../../../simulator';
import { runEnterprise, runPartner } from '../../harness/run-gridbank';
import { binaryStream, cleanUpBinaries, type NodeRun } from '../../harness/run-node';
import { apiCalls, useSimulator } from '../../harness/simulator';
import { createHash } from 'node:crypto';

const sim = useSimulator();
const keep = cleanUpBinaries();

const licensed = (n: number) => sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;
const storage = () => sim().log.filter((e) => e.target === 'storage');

/** Get Download URL with Download File on. */
const download = async (videoKey: string) =>
	keep(await runPartner({ operation: 'getDownloadUrl', videoKey, download: true }));

async function sha256Of(run: NodeRun) {
	const hash = createHash('sha256');
	for await (const chunk of await binaryStream(run.items[0], 'data')) hash.update(chunk as Buffer);
	return hash.digest('hex');
}

test('a first 206 that starts at byte 100 is refused, not stored as byte 0', async () => {
	const key = licensed(0);
	sim().setVideoFile(key, { size: 5000 });
	sim().faults.misplaceRange(100);
	const run = await download(key);
	expect(run.items).toEqual([]);
	expect(run.error?.message).toBe("GridBank's storage sent the wrong part of the file");
	expect(run.error?.description).toMatch(/from byte 100 when byte 0 was asked for/);
	expect(run.error?.description).not.toMatch(/Base URL/);
});

test('a resume answered from the wrong byte fails instead of splicing', async () => {
	const key = licensed(1);
	sim().setVideoFile(key, { size: 3_000_000 });
	sim().faults.cutDownloadAfter(1_000_000, 1);
	sim().faults.misplaceRange(7, 1, { resumesOnly: true });
	const run = await download(key);
	expect(run.items).toEqual([]);
	expect(run.error?.message).toBe("GridBank's storage sent the wrong part of the file");
	expect(run.error?.description).toMatch(/from byte [1-9]\d* when byte [1-9]\d* was asked for/);
	// The resume asked from where the cut body's bytes ended (what reached n8n before the socket closed).
	expect(storage()).toHaveLength(2);
	expect(storage()[1].headers.range).toMatch(/^bytes=[1-9]\d*-$/);
});

test('storage answering a resume with 200 and the whole file: restarted from byte 0, byte-exact', async () => {
	const key = licensed(2);
	const size = 400_000;
	sim().setVideoFile(key, { size });
	sim().faults.cutDownloadAfter(150_000, 1);
	sim().faults.ignoreRange(1);
	const run = await download(key);
	expect(run.error).toBeUndefined();
	expect(run.items[0].json.fileSize).toBe(size);
	expect(await sha256Of(run)).toBe(fileSha256(key, size));
	expect(storage().map((e) => [e.headers.range, e.status])).toEqual([
		['bytes=0-', 206],
		['bytes=150000-', 200],
		['bytes=0-', 206],
	]);
});

test('storage requests ask for the identity encoding', async () => {
	const key = licensed(3);
	sim().setVideoFile(key, { size: 1000 });
	const run = await download(key);
	expect(run.error).toBeUndefined();
	expect(storage()[0].headers['accept-encoding']).toBe('identity');
});

test.each([
	['html', /sent a web page \(text\/html\) instead of the video/],
	['empty', /sent an empty file/],
] as const)(
	'a 200 with %s body where the video is expected is refused, nothing stored',
	async (kind, message) => {
		const key = licensed(4);
		sim().setVideoFile(key, { size: 1000 });
		sim().faults.storageServesPage(kind);
		const run = await download(key);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toMatch(message);
		expect(run.error?.description).not.toMatch(/Base URL/);
	},
);

describe('signed URLs the node refuses to fetch', () => {
	test.each([
		['data:video/mp4;base64,AAAA', /"data:" URL/],
		['file:///etc/passwd', /"file:" URL/],
		['/masters/abc?sig=1', /not an absolute URL/],
		[null, /null/],
		[12, /number/],
		['http://storage.example.com/masters/abc', /not https/],
	])('%p → NodeApiError, no storage request', async (value, reason) => {
		const key = licensed(5);
		sim().faults.signedUrlValue(value, 2);
		const run = await download(key);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toMatch(/^GridBank issued a download link that cannot be used: /);
		expect(run.error?.message).toMatch(reason);
		expect(run.error?.description).not.toMatch(/Base URL/);
		expect(sim().log.filter((e) => e.target !== 'api')).toEqual([]);
	});

	test('Enterprise Get Download too', async () => {
		sim().faults.signedUrlValue('file:///etc/passwd', 2);
		const run = keep(
			await runEnterprise({
				resource: 'video',
				operation: 'getDownload',
				videoId: licensed(5),
				download: true,
			}),
		);
		expect(run.error?.message).toMatch(/cannot be used: the link is a "file:" URL/);
		expect(sim().log.filter((e) => e.target !== 'api')).toEqual([]);
		expect(apiCalls(sim(), '/download')).toHaveLength(1);
	});
});
