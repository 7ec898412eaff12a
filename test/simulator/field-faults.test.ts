/** Contract: the field hardening II fault switches (field-faults.ts) do what their doc says. */
import {
	DEMO_ENTERPRISE_KEY,
	DEMO_PARTNER_KEY,
	fileBytes,
	startSimulator,
	type Simulator,
} from '../../simulator';
import { call, fetchUrl, header, signedUrlOf } from './helpers';

let sim: Simulator;
let videoKey: string;

beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.close();
});
beforeEach(() => {
	sim.reset();
	videoKey = sim.partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
	sim.setVideoFile(videoKey, { size: 5000 });
});

const signedUrl = (key = videoKey) => signedUrlOf(sim.baseUrl, key);

test('misplaceRange: a 206 from `offset` bytes past the byte asked, Content-Range saying so; consumed', async () => {
	const url = await signedUrl();
	sim.faults.misplaceRange(100);
	const r = await fetchUrl(url, { range: 'bytes=0-' });
	expect(r.status).toBe(206);
	expect(header(r, 'content-range')).toBe('bytes 100-4999/5000');
	expect(r.bytes.equals(fileBytes(videoKey, 100, 5000))).toBe(true);
	const again = await fetchUrl(url, { range: 'bytes=0-' });
	expect(header(again, 'content-range')).toBe('bytes 0-4999/5000');
	sim.faults.misplaceRange(7, 1, { resumesOnly: true });
	expect(header(await fetchUrl(url, { range: 'bytes=0-' }), 'content-range')).toBe(
		'bytes 0-4999/5000',
	);
	expect(header(await fetchUrl(url, { range: 'bytes=10-' }), 'content-range')).toBe(
		'bytes 17-4999/5000',
	);
});

test('ignoreRange: a Range past byte 0 gets 200 and the whole file; a Range from 0 is not counted', async () => {
	const url = await signedUrl();
	sim.faults.ignoreRange(1);
	const first = await fetchUrl(url, { range: 'bytes=0-' });
	expect(first.status).toBe(206);
	const r = await fetchUrl(url, { range: 'bytes=1000-' });
	expect(r.status).toBe(200);
	expect(header(r, 'content-range')).toBeUndefined();
	expect(r.bytes.equals(fileBytes(videoKey, 0, 5000))).toBe(true);
	expect((await fetchUrl(url, { range: 'bytes=1000-' })).status).toBe(206);
});

test.each([
	['html', /^text\/html/, /<html>/],
	['empty', /^video\//, /^$/],
] as const)(
	'storageServesPage(%s): 200 with that body instead of the file',
	async (kind, type, body) => {
		const url = await signedUrl();
		sim.faults.storageServesPage(kind);
		const r = await fetchUrl(url, { range: 'bytes=0-' });
		expect(r.status).toBe(200);
		expect(header(r, 'content-type')).toMatch(type);
		expect(r.text).toMatch(body);
		expect((await fetchUrl(url)).bytes.length).toBe(5000);
	},
);

test('signedUrlValue: the next download answers of both APIs carry the value as url', async () => {
	sim.faults.signedUrlValue('file:///etc/passwd', 2);
	expect(
		(
			await call(`${sim.baseUrl}/partner/v1/videos/${encodeURIComponent(videoKey)}/download`, {
				key: DEMO_PARTNER_KEY,
			})
		).json.url,
	).toBe('file:///etc/passwd');
	const enterprise = await call(
		`${sim.baseUrl}/external/v1/videos/${encodeURIComponent(videoKey)}/download`,
		{ key: DEMO_ENTERPRISE_KEY },
	);
	expect(enterprise.json.url).toBe('file:///etc/passwd');
	expect(typeof enterprise.json.file_size).toBe('number');
	expect(await signedUrl()).toMatch(/^http:\/\/127\.0\.0\.1:/);
});

test('okBodyInstead: a matching 200 carries the given JSON; other paths and errors untouched', async () => {
	sim.faults.okBodyInstead('/partner/v1/content', { videos: 'abc' });
	expect(
		(
			await call(`${sim.baseUrl}/partner/v1/videos/${encodeURIComponent(videoKey)}/download`, {
				key: DEMO_PARTNER_KEY,
			})
		).json.url,
	).toMatch(/^http/);
	expect((await call(`${sim.baseUrl}/partner/v1/content`, { key: 'apik_bad.key' })).status).toBe(
		401,
	);
	expect((await call(`${sim.baseUrl}/partner/v1/content`, { key: DEMO_PARTNER_KEY })).json).toEqual(
		{ videos: 'abc' },
	);
	expect(
		Array.isArray(
			(await call(`${sim.baseUrl}/partner/v1/content`, { key: DEMO_PARTNER_KEY })).json.videos,
		),
	).toBe(true);
});

test('dripApi: headers at once, the body a byte at a time; 0 turns it off', async () => {
	sim.faults.okBodyInstead('/external/v1/usage/me', { a: 1 });
	sim.faults.dripApi(20);
	const began = Date.now();
	const r = await call(`${sim.baseUrl}/external/v1/usage/me`, { key: DEMO_ENTERPRISE_KEY });
	expect(r.json).toEqual({ a: 1 });
	expect(Date.now() - began).toBeGreaterThanOrEqual(7 * 20 - 10);
	sim.faults.dripApi(0);
	expect(
		(await call(`${sim.baseUrl}/external/v1/usage/me`, { key: DEMO_ENTERPRISE_KEY })).status,
	).toBe(200);
});

test('misstateFileSize: the Enterprise download answer states file_size off by delta; storage keeps the true size', async () => {
	sim.faults.misstateFileSize(-1000);
	const r = await call(
		`${sim.baseUrl}/external/v1/videos/${encodeURIComponent(videoKey)}/download`,
		{ key: DEMO_ENTERPRISE_KEY },
	);
	expect(r.json.file_size).toBe(4000);
	expect((await fetchUrl(r.json.url)).bytes.length).toBe(5000);
	const again = await call(
		`${sim.baseUrl}/external/v1/videos/${encodeURIComponent(videoKey)}/download`,
		{ key: DEMO_ENTERPRISE_KEY },
	);
	expect(again.json.file_size).toBe(5000);
});

test('partnerForbidden: a matching Partner request gets 403 with the code in the envelope', async () => {
	sim.faults.partnerForbidden('/partner/v1/content', 'geo_blocked');
	const r = await call(`${sim.baseUrl}/partner/v1/content`, { key: DEMO_PARTNER_KEY });
	expect(r.status).toBe(403);
	expect(r.json.detail.error.code).toBe('geo_blocked');
	expect((await call(`${sim.baseUrl}/partner/v1/content`, { key: DEMO_PARTNER_KEY })).status).toBe(
		200,
	);
});

test('rawDisposition: the exact value, as raw UTF-8 bytes', async () => {
	const url = await signedUrl();
	sim.faults.rawDisposition('filename="Ünï:clip.mov');
	const r = await fetchUrl(url);
	expect(Buffer.from(header(r, 'content-disposition') as string, 'latin1').toString('utf8')).toBe(
		'filename="Ünï:clip.mov',
	);
	expect(header(await fetchUrl(url), 'content-disposition')).toMatch(/^attachment; /);
});
