/** Contract: GridBank's clock (clockOffset, omitDateHeader) and the Date header every response carries from it. */
import { DEMO_ENTERPRISE_KEY, DEMO_PARTNER_KEY, startSimulator } from '../../simulator';
import { useSimulator } from '../harness/simulator';
import { call, fetchUrl, header, type Reply } from './helpers';

const MINUTE = 60_000;
// The harness's simulator: its switches (the clock's too) are cleared before every test.
const sim = useSimulator();

const videoKey = () => sim().partnerLicences(DEMO_PARTNER_KEY)[0]!.video_key;
const partnerUrl = () =>
	call(`${sim().baseUrl}/partner/v1/videos/${encodeURIComponent(videoKey())}/download`, {
		key: DEMO_PARTNER_KEY,
	});
const dateOf = (r: Reply) => Date.parse(String(header(r, 'date')));

test("API and storage answers carry a Date header from GridBank's clock (an injected one too)", async () => {
	const clock = Date.UTC(2024, 5, 1, 12, 0, 0);
	const frozen = await startSimulator({ now: () => clock });
	try {
		const key = frozen.partnerLicences(DEMO_PARTNER_KEY)[0]!.video_key;
		const r = await call(
			`${frozen.baseUrl}/partner/v1/videos/${encodeURIComponent(key)}/download`,
			{
				key: DEMO_PARTNER_KEY,
			},
		);
		expect(header(r, 'date')).toBe('Sat, 01 Jun 2024 12:00:00 GMT');
		expect(r.json.expires_at).toBe(clock / 1000 + 300);
		expect(header(await fetchUrl(r.json.url), 'date')).toBe('Sat, 01 Jun 2024 12:00:00 GMT');
	} finally {
		await frozen.close();
	}
});

test('clockOffset(-10 min): Date and expires_at ten minutes behind, the URL still valid five minutes by that clock', async () => {
	sim().faults.clockOffset(-10 * MINUTE);
	const before = Date.now();
	const r = await partnerUrl();
	expect(r.status).toBe(200);
	const date = dateOf(r);
	expect(date).toBeGreaterThanOrEqual(before - 10 * MINUTE - 1000);
	expect(date).toBeLessThanOrEqual(Date.now() - 10 * MINUTE);
	// The URL's lifetime is unchanged: expires_at five minutes after GridBank's own Date.
	expect(r.json.expires_at * 1000 - date).toBe(300_000);
	expect(r.json.expires_at * 1000).toBeLessThan(Date.now());
	// Storage shares GridBank's clock: the URL is accepted.
	const file = await fetchUrl(r.json.url);
	expect(file.status).toBe(200);
	expect(dateOf(file)).toBeLessThanOrEqual(Date.now() - 10 * MINUTE);
});

test('clockOffset(+10 min): Date and the Enterprise expires_at ahead; storage refuses by that clock', async () => {
	sim().faults.clockOffset(10 * MINUTE);
	const [id] = sim().addEnterpriseVideos([{}]);
	const r = await call(`${sim().baseUrl}/external/v1/videos/${id}/download?expires_in=1`, {
		key: DEMO_ENTERPRISE_KEY,
	});
	expect(r.status).toBe(200);
	const date = dateOf(r);
	expect(date).toBeGreaterThanOrEqual(Date.now() + 10 * MINUTE - 2000);
	expect(Date.parse(r.json.expires_at) - date).toBe(MINUTE);
	expect((await fetchUrl(r.json.url)).status).toBe(200);
	// Two minutes later on GridBank's clock, storage refuses the one-minute URL.
	sim().faults.clockOffset(12 * MINUTE);
	expect((await fetchUrl(r.json.url)).status).toBe(403);
});

test('omitDateHeader: no Date on API or storage answers; clear() restores it and the offset', async () => {
	sim().faults.clockOffset(-10 * MINUTE);
	sim().faults.omitDateHeader(true);
	const r = await partnerUrl();
	expect(r.status).toBe(200);
	expect(header(r, 'date')).toBeUndefined();
	expect(header(await fetchUrl(r.json.url), 'date')).toBeUndefined();
	sim().faults.clear();
	const after = await partnerUrl();
	// The offset is gone: ten minutes would show; a loaded machine's seconds do not matter.
	expect(Math.abs(dateOf(after) - Date.now())).toBeLessThan(MINUTE);
	expect(Math.abs(after.json.expires_at * 1000 - Date.now() - 300_000)).toBeLessThan(MINUTE);
});

test('clockOffset refuses a number that is not finite', () => {
	expect(() => sim().faults.clockOffset(Number.NaN)).toThrow(/finite/);
});
