// Three n8n processes on one GridBank account, through the real engine: each "process" is its
// own copy of the Partner node and of the pacer (jest.isolateModules: nothing shared but the
// simulator and the key), all running Get Download URL over many items at the same time, as
// a main and two queue-mode workers do. The pacer keeps the account under its limit from the
// server's X-RateLimit-* alone: no 429, and most of the allowance used.
// Each process has used the key just before on an endpoint that reports no allowance (the queue
// benchmark's order: downloads, then pacing). Those requests leave the process's own window
// while the account's is full; counting them as freed slots of the account earned the 429s
// measured on the cluster.
// The window is 5 s instead of GridBank's 60 s on both sides (the simulator's rateWindowMs and
// the pacer's test hook), so the test covers several windows in about 20 s.
import type { INodeType } from 'n8n-workflow';

import { registerNodeType } from '../../../harness/node-types';
import { runNode } from '../../../harness/run-node';
import { useSimulator } from '../../../harness/simulator';
import { DEMO_PARTNER_KEY } from '../../../../simulator';

type ProfileModule = typeof import('../../../../nodes/GridBankPartner/transport/profile');
type NodeModule = typeof import('../../../../nodes/GridBankPartner/GridBankPartner.node');

// 30 requests a 5 s window is 6 a second for the three processes together: a machine loaded
// many times over still sends that, so the share below measures the pacer, not the machine.
const LIMIT = 30;
const WINDOW_MS = 5000;
const PROCESSES = 3;
const ITEMS = 35;

const sim = useSimulator({ partnerRatePerMinute: LIMIT, rateWindowMs: WINDOW_MS });
/** Another GridBank endpoint the same key was used on just before, which sends no X-RateLimit-* headers. */
const other = useSimulator({ partnerRatePerMinute: 0 });

/** A Partner node type with its own pacer, as a separate n8n process would load it. */
function processCopy(name: string): void {
	jest.isolateModules(() => {
		const profile = jest.requireActual<ProfileModule>(
			'../../../../nodes/GridBankPartner/transport/profile',
		);
		profile.PARTNER.rateWindowMs = WINDOW_MS;
		const { GridBankPartner } = jest.requireActual<NodeModule>(
			'../../../../nodes/GridBankPartner/GridBankPartner.node',
		);
		registerNodeType(name, new GridBankPartner() as INodeType);
	});
}

/** The most requests the server accepted inside any one window. */
function busiestWindow(times: number[]): number {
	let most = 0;
	for (let i = 0, j = 0; j < times.length; j++) {
		while ((times[i] as number) <= (times[j] as number) - WINDOW_MS) i++;
		most = Math.max(most, j - i + 1);
	}
	return most;
}

/**
 * The share of the limit used, as the benchmark counts it: the mean number of accepted requests
 * in a window, over every window from the first request to the last (10 ms steps), / LIMIT.
 * X-RateLimit-Reset is whole seconds, so waiting for it costs more of a 5 s window than of 60 s.
 */
function shareOfLimit(times: number[]): number {
	const last = times[times.length - 1] as number;
	let sum = 0;
	let windows = 0;
	for (
		let start = times[0] as number, lo = 0, hi = 0;
		start + WINDOW_MS <= last + 1;
		start += 10, windows++
	) {
		while ((times[lo] as number) < start) lo++;
		while (hi < times.length && (times[hi] as number) < start + WINDOW_MS) hi++;
		sum += hi - lo;
	}
	return sum / windows / LIMIT;
}

test('three processes on one key: no 429, nothing lost or duplicated, most of the limit used', async () => {
	const names = Array.from({ length: PROCESSES }, (_, i) => `gridBankPartnerProcess${i + 1}`);
	names.forEach(processCopy);
	const keys = sim()
		.partnerLicences(DEMO_PARTNER_KEY)
		.map((l) => l.video_key);
	const credentials = (baseUrl: string) => ({
		gridBankPartnerApi: { apiKey: DEMO_PARTNER_KEY, baseUrl },
	});
	const urls = { operation: 'getDownloadUrl', videoKey: '={{ $json.video_key }}' };
	// Each process has just used the key elsewhere (earlier work in the same n8n process): those
	// requests sit in its own window, but the server counting this account never saw them.
	for (const type of names) {
		const earlier = await runNode({
			type,
			parameters: urls,
			credentials: credentials(other().baseUrl),
			input: keys.slice(0, 20).map((video_key) => ({ video_key })),
		});
		expect(earlier.error).toBeUndefined();
	}
	// Half a window later, so those requests leave this process's window while the account's is full.
	await new Promise((resolve) => setTimeout(resolve, WINDOW_MS / 2));
	sim().clearLog();
	const runs = await Promise.all(
		names.map((type, p) =>
			runNode({
				type,
				parameters: urls,
				credentials: credentials(sim().baseUrl),
				input: keys.slice(p * ITEMS, (p + 1) * ITEMS).map((video_key) => ({ video_key })),
			}),
		),
	);
	for (const [p, run] of runs.entries()) {
		expect(run.error).toBeUndefined();
		const got = run.items.map((item) => item.json.video_key);
		expect(got).toEqual(keys.slice(p * ITEMS, (p + 1) * ITEMS));
		for (const item of run.items) expect(String(item.json.url)).toMatch(/^http/);
	}
	const api = sim().log.filter((l) => l.target === 'api');
	const refused = api.filter((l) => l.status === 429).length;
	const accepted = api
		.filter((l) => l.status === 200)
		.map((l) => l.at)
		.sort((a, b) => a - b);
	expect(refused).toBe(0);
	expect(accepted).toHaveLength(PROCESSES * ITEMS);
	expect(busiestWindow(accepted)).toBeLessThanOrEqual(LIMIT);
	const share = shareOfLimit(accepted);
	const span = (accepted[accepted.length - 1] as number) - (accepted[0] as number);
	console.log(
		`three processes: ${accepted.length} requests in ${span} ms, ${refused} x 429, ${Math.round(share * 1000) / 10} % of the limit`,
	);
	// The 85 % is measured at GridBank's 60 s window (npm run bench -- --queue: 96.6-96.9 %).
	// In a 5 s window each whole-second Reset costs up to a fifth of a window and the reserve (3
	// of 30) a tenth: 65 % still fails a pacer that sits out a whole window per burst (50 % at
	// best). At 60 a window a loaded machine's lag showed (73.7-79.1 %); at 30 it has room to spare.
	expect(share).toBeGreaterThanOrEqual(0.65);
}, 60_000);
