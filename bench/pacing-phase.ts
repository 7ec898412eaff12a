// Phase 3 of npm run bench: three workflows at once on one Partner key, time-scaled: the share
// of the limit used and no 429.
import { setPartnerWindow } from '../test/harness/rate-window';
import { runNode } from '../test/harness/run-node';
import { DEMO_PARTNER_KEY } from '../simulator';
import { maxInWindow, meanPerWindow, now } from './measure';
import type { Results } from './report';
import { ChildSimulator } from './sim';
import { CONFIG } from './options';
import { log, ok, PARTNER_LIMIT, partnerCredential, round } from './phase-helpers';

// --------------------------------------------------------------------------------- 3. pacing

export async function benchPacing(results: Results): Promise<void> {
	const windowMs = CONFIG.pacingWindowMs;
	// GridBank's 300 per minute on a shorter clock: the simulator counts 300 per windowMs, and the
	// node's pacer uses the same window (the Partner profile's, setPartnerWindow). Everything else is unchanged.
	const sim = await ChildSimulator.start({
		partnerRatePerMinute: PARTNER_LIMIT,
		rateWindowMs: windowMs,
		logLimit: undefined,
	});
	setPartnerWindow(windowMs);
	try {
		const licences = (await sim.call('partnerLicences', DEMO_PARTNER_KEY)) as Array<{
			video_key: string;
		}>;
		const keys = (count: number, offset: number) =>
			Array.from({ length: count }, (_, i) => ({
				videoKey: licences[(offset + i) % licences.length]!.video_key,
			}));
		const credentials = partnerCredential(sim.baseUrl);
		const listRequests = Math.ceil(licences.length / 100) * CONFIG.pacingListItems;
		const planned = listRequests + 2 * CONFIG.pacingUrlItems;
		log(
			`pacing: 3 workflows, ${planned} requests on one key, ${PARTNER_LIMIT} per ${windowMs / 1000} s ...`,
		);
		const t0 = now();
		const runs = await Promise.all([
			// A Return All listing for each input item...
			runNode({
				type: 'gridBankPartner',
				parameters: { operation: 'listContent', returnAll: true },
				credentials,
				input: Array.from({ length: CONFIG.pacingListItems }, () => ({})),
			}),
			// ...and two Get Download URL workflows over many items.
			...[0, 1].map((w) =>
				runNode({
					type: 'gridBankPartner',
					parameters: { operation: 'getDownloadUrl', videoKey: '={{ $json.videoKey }}' },
					credentials,
					input: keys(CONFIG.pacingUrlItems, w * CONFIG.pacingUrlItems),
				}),
			),
		]);
		const seconds = (now() - t0) / 1000;
		runs.forEach((run, i) => ok(run, `pacing workflow ${i + 1}`));
		const calls = await sim.apiLog('/partner/v1/');
		const tooMany = calls.filter((c) => c.status === 429).length;
		const times = calls.map((c) => c.at);
		const perWindow = meanPerWindow(times, windowMs);
		const share = perWindow.mean / PARTNER_LIMIT;
		const busiest = maxInWindow(times, windowMs);
		results.pacing = {
			timeScaling: `simulator rateWindowMs ${windowMs} and the Partner profile's rateWindowMs ${windowMs}: ${PARTNER_LIMIT} requests per ${windowMs / 1000} s instead of per 60 s`,
			workflows: 3,
			requests: calls.length,
			plannedRequests: planned,
			status429: tooMany,
			seconds: round(seconds, 2),
			meanPerWindow: round(perWindow.mean),
			busiestWindow: busiest,
			shareOfLimit: round(share * 100),
		};
		results.targets.push(
			{
				name: 'Pacing, 3 workflows on one key: 429 responses',
				target: '0',
				value: String(tooMany),
				met: tooMany === 0,
			},
			{
				name: 'Pacing: achieved rate, share of the limit',
				target: '≥ 90 %',
				value: `${round(share * 100)} % (${round(perWindow.mean)} per ${windowMs / 1000} s window; ${calls.length} requests in ${round(seconds)} s)`,
				met: share >= 0.9,
			},
		);
		log(
			`pacing: ${calls.length} requests in ${round(seconds)} s, ${tooMany} × 429, ${round(share * 100)} % of the limit, busiest window ${busiest}`,
		);
	} finally {
		setPartnerWindow();
		await sim.close();
	}
}
