// Phase 4 of npm run bench: Get Download URL over many items, per item above the simulator's
// own time and beside a minimal node's.
import { Agent, request } from 'undici';
import { setPartnerWindow } from '../test/harness/rate-window';
import { USER_AGENT } from '../nodes/shared/version';
import { runNode } from '../test/harness/run-node';
import { DEMO_PARTNER_KEY } from '../simulator';
import { maxInWindow, now } from './measure';
import type { Results } from './report';
import { ChildSimulator } from './sim';
import { CONFIG } from './options';
import { log, ok, PARTNER_LIMIT, partnerCredential, round } from './phase-helpers';

// ------------------------------------------------------------------------------- 4. overhead

export async function benchOverhead(results: Results): Promise<void> {
	const n = CONFIG.overheadItems;
	// No rate limit here: this measures the cost per item, not GridBank's allowance (1,000
	// requests would otherwise be paced over more than three minutes). The pacer keeps its
	// limit of 300 per window; with a 1 ms window it only books requests (see pacingBound).
	const sim = await ChildSimulator.start({ partnerRatePerMinute: 0, logLimit: undefined });
	setPartnerWindow(1);
	try {
		const licences = (await sim.call('partnerLicences', DEMO_PARTNER_KEY)) as Array<{
			video_key: string;
		}>;
		const input = Array.from({ length: n }, (_, i) => ({
			videoKey: licences[i % licences.length]!.video_key,
		}));

		// The simulator's own time per request: undici on one keep-alive connection, sequential.
		const agent = new Agent({ connections: 1 });
		const direct = async (count: number) => {
			const t0 = now();
			for (let i = 0; i < count; i++) {
				const key = input[i % n]!.videoKey;
				const response = await request(
					`${sim.baseUrl}/partner/v1/videos/${encodeURIComponent(key)}/download`,
					{
						dispatcher: agent,
						headers: {
							authorization: `Bearer ${DEMO_PARTNER_KEY}`,
							'user-agent': USER_AGENT,
							accept: 'application/json',
						},
					},
				);
				await response.body.json();
				if (response.statusCode !== 200)
					throw new Error(`direct request: HTTP ${response.statusCode}`);
			}
			return (now() - t0) / count;
		};
		const perItem = async (
			type: string,
			parameters: Record<string, unknown>,
			items: typeof input,
		) => {
			const t0 = now();
			const run = ok(
				await runNode({
					type,
					parameters,
					credentials: partnerCredential(sim.baseUrl),
					input: items,
				}),
				type,
			);
			if (run.items.length !== items.length || typeof run.items[0]?.json.url !== 'string')
				throw new Error(`overhead: ${run.items.length} of ${items.length} items`);
			return (now() - t0) / items.length;
		};
		const node = (items: typeof input) =>
			perItem(
				'gridBankPartner',
				{ operation: 'getDownloadUrl', videoKey: '={{ $json.videoKey }}' },
				items,
			);
		// n8n's own floor: a minimal node reading the same expression and making the same
		// authenticated GET through httpRequestWithAuthentication, nothing else.
		const bare = (items: typeof input) =>
			perItem(
				'benchBareApiGet',
				{ baseUrl: sim.baseUrl, videoKey: '={{ $json.videoKey }}' },
				items,
			);

		await direct(200); // warm-up
		await node(input.slice(0, 100));
		await bare(input.slice(0, 100));
		const rounds = 3;
		const simMs: number[] = [];
		const nodeMs: number[] = [];
		const bareMs: number[] = [];
		for (let r = 0; r < rounds; r++) {
			simMs.push(await direct(n));
			bareMs.push(await bare(input));
			await sim.call('clearLog');
			nodeMs.push(await node(input));
		}
		await agent.close();
		// The pacer (300 per 1 ms + 250 ms slack here) must not have been what set the pace.
		const calls = await sim.apiLog('/partner/v1/videos/');
		const busiest = maxInWindow(
			calls.map((c) => c.at),
			251,
		);
		// Best round of each: the machine is shared, noise only adds time.
		const simPerRequest = Math.min(...simMs);
		const nodePerItem = Math.min(...nodeMs);
		const barePerItem = Math.min(...bareMs);
		const overhead = nodePerItem - simPerRequest;
		results.overhead = {
			items: n,
			rounds,
			simulatorMsPerRequest: round(simPerRequest, 3),
			nodeMsPerItem: round(nodePerItem, 3),
			n8nFloorMsPerItem: round(barePerItem, 3),
			overheadMsPerItem: round(overhead, 3),
			n8nOverheadMsPerItem: round(barePerItem - simPerRequest, 3),
			oursAboveN8nMsPerItem: round(nodePerItem - barePerItem, 3),
			allRounds: {
				simulatorMsPerRequest: simMs.map((v) => round(v, 3)),
				nodeMsPerItem: nodeMs.map((v) => round(v, 3)),
				n8nFloorMsPerItem: bareMs.map((v) => round(v, 3)),
			},
			pacingBound: busiest >= PARTNER_LIMIT,
		};
		results.targets.push({
			name: `Overhead, Get Download URL over ${n.toLocaleString('en')} items`,
			target: '≤ 2 ms per item',
			value: `${round(overhead, 2)} ms (${round(nodePerItem, 2)} ms per item in n8n − ${round(simPerRequest, 2)} ms simulator; n8n's own floor ${round(barePerItem - simPerRequest, 2)} ms, ours above it ${round(nodePerItem - barePerItem, 2)} ms)`,
			met: overhead <= 2,
		});
		log(
			`overhead: node ${round(nodePerItem, 3)} ms/item, n8n floor ${round(barePerItem, 3)} ms/item, simulator ${round(simPerRequest, 3)} ms/request → ${round(overhead, 3)} ms/item (ours above n8n: ${round(nodePerItem - barePerItem, 3)})`,
		);
	} finally {
		setPartnerWindow();
		await sim.close();
	}
}
