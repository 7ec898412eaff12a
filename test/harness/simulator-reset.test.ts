// The harness's default: before every test the simulator forgets what the previous test left
// (faults, request log, rate-limit windows, file overrides), and keeps the suite's accounts.
// The tests run in order and each checks what the one before it left.
import { DEMO_PARTNER_KEY } from '../../simulator';
import { runPartner } from './run-gridbank';
import { useSimulator } from './simulator';

const sim = useSimulator({ partnerRatePerMinute: 5 });

let key: string;
let videoKey: string;
beforeAll(() => {
	key = sim().createPartnerAccount({ licences: 2 }).key;
	videoKey = sim().partnerLicences(key)[0].video_key;
});

const remaining = async (apiKey: string) => {
	// fetch, not undici: this file also runs in the Node 20 leg of npm run test:matrix.
	const res = await fetch(`${sim().baseUrl}/partner/v1/content?per_page=1`, {
		headers: { authorization: `Bearer ${apiKey}`, 'user-agent': 'gridbank-reset-test' },
	});
	await res.arrayBuffer();
	return Number(res.headers.get('x-ratelimit-remaining'));
};

test('a test leaves a fault armed, a request log, a used rate window and a changed file', async () => {
	expect(await remaining(DEMO_PARTNER_KEY)).toBe(4);
	expect(sim().log).toHaveLength(1);
	sim().faults.failNext({ status: 503, count: 5 });
	sim().setVideoFile(videoKey, { size: 123 });
});

test("the next test starts with none of it, and with the suite's account", async () => {
	expect(sim().log).toEqual([]);
	expect(sim().getVideoFile(videoKey).size).not.toBe(123);
	expect(await remaining(DEMO_PARTNER_KEY)).toBe(4);
	const run = await runPartner({ operation: 'listContent', returnAll: true }, { apiKey: key });
	expect(run.error).toBeUndefined();
	expect(run.items.map((item) => item.json.video_key)).toContain(videoKey);
	expect(run.calls.map((call) => call.status)).toEqual([200]);
});
