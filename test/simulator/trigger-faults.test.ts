/** Contract: the switches of the trigger hardening (per-video storage pages, an empty master, a 429's Reset). */
import { DEMO_PARTNER_KEY } from '../../simulator';
import { call, contractSimulator, fetchUrl, header, signedUrlOf } from './helpers';

const ctx = contractSimulator();

const partner = (path: string) =>
	call(`${ctx.sim.baseUrl}/partner/v1${path}`, { key: DEMO_PARTNER_KEY });
const signedUrl = (key: string) => signedUrlOf(ctx.sim.baseUrl, key);
const firstKeys = () =>
	ctx.sim
		.partnerLicences(DEMO_PARTNER_KEY)
		.slice(0, 2)
		.map((l) => l.video_key);

test.each(['html', 'empty'] as const)(
	"storagePageFor(key, '%s'): every GET of that video's file is that page, other videos are served, null restores it",
	async (kind) => {
		const [a, b] = firstKeys();
		ctx.sim.faults.storagePageFor(a, kind);
		for (let i = 0; i < 2; i++) {
			const page = await fetchUrl(await signedUrl(a), { Range: 'bytes=0-' });
			expect(page.status).toBe(200);
			if (kind === 'html') {
				expect(header(page, 'content-type')).toMatch(/^text\/html/);
				expect(page.text).toContain('<html>');
			} else expect(page.bytes.length).toBe(0);
		}
		expect((await fetchUrl(await signedUrl(b), { Range: 'bytes=0-' })).status).toBe(206);
		ctx.sim.faults.storagePageFor(a, null);
		expect((await fetchUrl(await signedUrl(a), { Range: 'bytes=0-' })).status).toBe(206);
	},
);

test('an empty master (setVideoFile size 0): 416 with bytes */0 to Range: bytes=0-, other videos served', async () => {
	const [a, b] = firstKeys();
	ctx.sim.setVideoFile(a, { size: 0 });
	const empty = await fetchUrl(await signedUrl(a), { Range: 'bytes=0-' });
	expect(empty.status).toBe(416);
	expect(header(empty, 'content-range')).toBe('bytes */0');
	expect((await fetchUrl(await signedUrl(b), { Range: 'bytes=0-' })).status).toBe(206);
});

test("failNext rateLimitResetSeconds: GridBank's 429, Retry-After 3 with the Reset a minute ahead", async () => {
	ctx.sim.faults.failNext({
		status: 429,
		count: 1,
		retryAfter: '3',
		rateLimitHeaders: true,
		rateLimitResetSeconds: 60,
	});
	const now = Math.ceil(Date.now() / 1000);
	const r = await partner('/content?per_page=1');
	expect(r.status).toBe(429);
	expect(header(r, 'retry-after')).toBe('3');
	expect(header(r, 'x-ratelimit-remaining')).toBe('0');
	const reset = Number(header(r, 'x-ratelimit-reset'));
	expect(reset - now).toBeGreaterThanOrEqual(59);
	// A minute on, in whole seconds; a loaded machine may answer a few seconds late.
	expect(reset - now).toBeLessThanOrEqual(75);
	expect((await partner('/content?per_page=1')).status).toBe(200);
});

test('apiNotHttp: the next API request is answered with bytes that are not HTTP, then the API answers', async () => {
	ctx.sim.faults.apiNotHttp(1);
	await expect(partner('/content?per_page=1')).rejects.toThrow();
	expect((await partner('/content?per_page=1')).status).toBe(200);
});
