// The trigger rides out rate limits: GridBank's documented 429 is absorbed by the retries, a poll
// that runs out of retries says it was rate limited, how long and how often it tried, and polls
// of one trigger never overlap (a tick during a running poll emits nothing and sends nothing).
import { useSimulator } from '../../harness/simulator';
import { pollTrigger } from '../../harness/run-gridbank';
import { keysOf, listCalls, nowSeconds } from './helpers';

const sim = useSimulator();
const account = () =>
	sim().createPartnerAccount({ licences: 5, purchasedAtStart: nowSeconds() - 30 * 86_400 }).key;
const settled = () => nowSeconds() - 3600;

test("GridBank's 429 (Retry-After 3, X-RateLimit-Remaining 0, Reset a minute ahead) is ridden out: the poll succeeds", async () => {
	const key = account();
	const trigger = pollTrigger({}, { apiKey: key });
	await trigger.activate();
	const bought = sim().addPartnerLicences(key, 2, { purchasedAt: settled() });
	sim().faults.failNext({
		status: 429,
		count: 1,
		path: '/content',
		retryAfter: '3',
		rateLimitHeaders: true,
		rateLimitResetSeconds: 60,
	});
	const started = Date.now();
	const poll = await trigger.tick();
	expect(poll.error).toBeUndefined();
	expect(keysOf(poll.items)).toEqual(bought);
	expect(listCalls(sim(), key).map((call) => call.status)).toEqual([200, 429, 200]);
	// The 3 s Retry-After asks for, not the minute the Reset suggests (generous for a loaded box).
	expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
	expect(Date.now() - started).toBeLessThan(20_000);
});

test('a poll that runs out of retries says rate limited, how often it tried and how long it waited', async () => {
	const key = account();
	const trigger = pollTrigger({ options: { maxRetries: 2 } }, { apiKey: key });
	await trigger.activate();
	const bought = sim().addPartnerLicences(key, 1, { purchasedAt: settled() });
	sim().faults.failNext({ status: 429, count: 3, path: '/content', retryAfter: '1' });
	const failed = await trigger.tick();
	expect(failed.items).toBeNull();
	const said = /^Rate limit exceeded after 2 retries \(tried 3 times over (\d+) seconds\)$/.exec(
		failed.error?.message ?? '',
	);
	expect(said).not.toBeNull();
	// Two waits of the 1 s asked for; a generous ceiling for a loaded machine.
	expect(Number(said?.[1])).toBeGreaterThanOrEqual(2);
	expect(Number(said?.[1])).toBeLessThan(15);
	expect(failed.error?.message).not.toMatch(/connection/);
	// Nothing lost: the next poll brings the licence.
	expect(keysOf((await trigger.tick()).items)).toEqual(bought);
});

test('polls of one trigger never overlap: a tick while a poll runs emits nothing and sends nothing; the next catches up', async () => {
	const key = account();
	const trigger = pollTrigger({ download: true }, { apiKey: key });
	await trigger.activate();
	const first = sim().addPartnerLicences(key, 2, { purchasedAt: settled() });
	for (const video of first) sim().setVideoFile(video, { size: 256 * 1024 });
	// Slow storage keeps the first poll busy with its downloads.
	sim().faults.slowDownload(256 * 1024);
	sim().clearLog();
	const running = trigger.tick();
	while (!sim().log.some((entry) => entry.target === 'storage'))
		await new Promise((resolve) => setTimeout(resolve, 20));
	const before = sim().log.filter((entry) => entry.target === 'api').length;
	const overlapping = await trigger.tick();
	expect(overlapping.error).toBeUndefined();
	expect(overlapping.items).toBeNull();
	const slow = await running;
	expect(slow.error).toBeUndefined();
	expect(keysOf(slow.items)).toEqual([...first].reverse());
	// The overlapping tick sent no request: the API calls after it are the first poll's downloads.
	expect(listCalls(sim(), key)).toHaveLength(1);
	expect(before).toBeGreaterThanOrEqual(2);
	sim().faults.slowDownload(0);

	// The next tick catches up.
	const later = sim().addPartnerLicences(key, 1);
	expect(keysOf((await trigger.tick()).items)).toEqual(later);
});
