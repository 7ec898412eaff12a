// No single video can block the trigger (Download File on). A video whose file cannot be
// delivered for a reason of its own comes once with `downloadError` and newer licences keep
// coming: at once when the reason is permanent (an empty master), after a few polls when it
// looks transient but hits that video alone while the others download. An outage that hits
// every video fails the polls and never turns into videos emitted without their files.
import type { INodeExecutionData } from 'n8n-workflow';

import { FAILED_POLLS_LIMIT } from '../../../nodes/shared/trigger/failing-videos';
import { storedBytes } from '../../harness/engine';
import { useSimulator } from '../../harness/simulator';
import { pollTrigger } from '../../harness/run-gridbank';
import { keysOf, nowSeconds } from './helpers';

const sim = useSimulator();
const account = () =>
	sim().createPartnerAccount({ licences: 5, purchasedAtStart: nowSeconds() - 30 * 86_400 }).key;
const settled = () => nowSeconds() - 3600;
const item = (items: INodeExecutionData[] | null, key: string) =>
	items?.find((entry) => entry.json.video_key === key);

/** Polls until `broken` comes, buying one new licence before each poll; checks each newer one arrives with its file. */
async function pollWithNewer(key: string, broken: string, trigger: ReturnType<typeof pollTrigger>) {
	for (let poll = 1; poll <= 10; poll++) {
		const [newer] = sim().addPartnerLicences(key, 1);
		const run = await trigger.tick();
		expect(run.error).toBeUndefined();
		const fresh = item(run.items, newer);
		expect(await storedBytes(fresh?.binary?.data)).toBe(sim().getVideoFile(newer).size);
		const found = item(run.items, broken);
		if (found) return { polls: poll, found };
	}
	throw new Error(`${broken} never came`);
}

test('an empty master (storage answers 416 to bytes=0-) comes once with downloadError at once; newer videos keep coming', async () => {
	const key = account();
	const trigger = pollTrigger({ download: true }, { apiKey: key });
	await trigger.activate();
	const [broken] = sim().addPartnerLicences(key, 1, { purchasedAt: settled() });
	sim().setVideoFile(broken, { size: 0 });
	const { polls, found } = await pollWithNewer(key, broken, trigger);
	expect(polls).toBe(1);
	expect(found.binary).toBeUndefined();
	expect(found.json.downloadError).toMatch(/empty/i);
	expect(found.json.downloadError).not.toMatch(/try again/i);
	expect((await trigger.tick()).items).toBeNull();
});

describe.each([
	['storage serves a web page instead of the video', 'html'],
	['storage serves an empty body', 'empty'],
	['the download-URL request fails (500) for that video alone', 'url'],
] as const)('%s on every poll while the other videos download', (_, fault) => {
	test(`it comes once with downloadError after ${FAILED_POLLS_LIMIT} polls, newer videos never wait`, async () => {
		const key = account();
		const trigger = pollTrigger({ download: true, options: { maxRetries: 0 } }, { apiKey: key });
		await trigger.activate();
		const [broken] = sim().addPartnerLicences(key, 1, { purchasedAt: settled() });
		if (fault === 'url')
			sim().faults.failNext({
				status: 500,
				count: 1000,
				path: `/videos/${encodeURIComponent(broken)}/download`,
			});
		else sim().faults.storagePageFor(broken, fault);
		const { polls, found } = await pollWithNewer(key, broken, trigger);
		expect(polls).toBe(FAILED_POLLS_LIMIT);
		expect(found.binary).toBeUndefined();
		expect(found.json.downloadError).toMatch(
			fault === 'url' ? /HTTP 500/ : fault === 'html' ? /web page/ : /empty file/,
		);
		expect(found.json.downloadError).toMatch(new RegExp(`${FAILED_POLLS_LIMIT} polls`));
		expect(found.json.downloadError).not.toMatch(/try again/i);
		// Once, and the trigger is quiet again.
		const after = await trigger.tick();
		expect(after.error).toBeUndefined();
		expect(after.items).toBeNull();
	});
});

test('an outage that hits every video fails the polls and loses nothing: after it, every video comes with its file', async () => {
	const key = account();
	const trigger = pollTrigger({ download: true, options: { maxRetries: 0 } }, { apiKey: key });
	await trigger.activate();
	sim().faults.failNext({ status: 503, count: 1000, target: 'storage' });
	const bought: string[] = [];
	for (let poll = 0; poll < FAILED_POLLS_LIMIT + 1; poll++) {
		bought.push(...sim().addPartnerLicences(key, 1, { purchasedAt: settled() + poll }));
		const run = await trigger.tick();
		expect(run.error?.message).toMatch(/HTTP 503/);
		expect(run.items).toBeNull();
	}
	sim().faults.clear();
	const recovered = await trigger.tick();
	expect(recovered.error).toBeUndefined();
	expect(keysOf(recovered.items).sort()).toEqual([...bought].sort());
	for (const entry of recovered.items ?? []) {
		expect(entry.json.downloadError).toBeUndefined();
		expect(await storedBytes(entry.binary?.data)).toBe(
			sim().getVideoFile(String(entry.json.video_key)).size,
		);
	}
});
