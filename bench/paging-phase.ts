// Phase 2 of npm run bench: Return All over Partner licences and Enterprise search results:
// requests and wall time.
import { runNode } from '../test/harness/run-node';
import { DEMO_ENTERPRISE_KEY, DEMO_PARTNER_KEY } from '../simulator';
import { now } from './measure';
import type { Results } from './report';
import { ChildSimulator } from './sim';
import { CONFIG } from './options';
import { log, ok, partnerCredential, round } from './phase-helpers';

// --------------------------------------------------------------------------------- 2. paging

export async function benchPaging(results: Results): Promise<void> {
	const sim = await ChildSimulator.start({ logLimit: undefined });
	try {
		const large = (await sim.call('createPartnerAccount', { licences: CONFIG.partnerLarge })) as {
			key: string;
		};
		const partnerCases = [
			{ label: 'demo member + team owner', key: DEMO_PARTNER_KEY },
			{ label: 'configured account', key: large.key },
		];
		for (const c of partnerCases) {
			const n = ((await sim.call('partnerLicences', c.key)) as unknown[]).length;
			await sim.call('clearLog');
			const t0 = now();
			const run = ok(
				await runNode({
					type: 'gridBankPartner',
					parameters: { operation: 'listContent', returnAll: true },
					credentials: partnerCredential(sim.baseUrl, c.key),
				}),
				'Partner Return All',
			);
			const ms = now() - t0;
			const calls = await sim.apiLog('/partner/v1/content');
			const expected = Math.ceil(n / 100);
			const exact =
				calls.length === expected &&
				run.items.length === n &&
				calls.every((call) => call.perPage === '100');
			results.paging.push({
				api: 'Partner',
				case: `${n.toLocaleString('en')} licences (${c.label})`,
				n,
				items: run.items.length,
				requests: calls.length,
				expectedRequests: expected,
				ms: Math.round(ms),
				msPerRequest: round(ms / calls.length, 2),
			});
			results.targets.push({
				name: `Partner Return All, ${n.toLocaleString('en')} licences: requests`,
				target: `= ceil(N/100) = ${expected}`,
				value: `${calls.length} requests, ${run.items.length} items, ${Math.round(ms)} ms`,
				met: exact,
			});
			log(
				`paging Partner N=${n}: ${calls.length} requests (expected ${expected}), ${run.items.length} items, ${Math.round(ms)} ms`,
			);
		}

		for (const [i, n] of CONFIG.enterpriseCounts.entries()) {
			// Videos only this keyword finds, so the search matches exactly n.
			const keyword = `benchmarkword${i}z`;
			const videos = Array.from({ length: n }, (_, j) => ({
				title: `Bench clip ${j}`,
				keywords: [keyword],
				popularity: n - j,
			}));
			await sim.call('addEnterpriseVideos', videos);
			await sim.call('clearLog');
			const t0 = now();
			const run = ok(
				await runNode({
					type: 'gridBankEnterprise',
					parameters: { resource: 'video', operation: 'search', query: keyword, returnAll: true },
					credentials: {
						gridBankEnterpriseApi: { apiKey: DEMO_ENTERPRISE_KEY, baseUrl: sim.baseUrl },
					},
				}),
				'Enterprise Return All',
			);
			const ms = now() - t0;
			const calls = await sim.apiLog('/external/v1/videos/search');
			const capped = Math.ceil(n / 80) > 100;
			const expected = Math.min(Math.ceil(n / 80), 100);
			const expectedItems = Math.min(n, 8_000);
			const hinted = (run.task.hints ?? []).some((h) => /page 100/.test(h.message));
			const exact =
				calls.length === expected &&
				run.items.length === expectedItems &&
				calls.every((call) => call.perPage === '80') &&
				hinted === capped;
			results.paging.push({
				api: 'Enterprise',
				case: `${n.toLocaleString('en')} results${capped ? ' (page cap: 100 pages, hint shown)' : ''}`,
				n,
				items: run.items.length,
				requests: calls.length,
				expectedRequests: expected,
				ms: Math.round(ms),
				msPerRequest: round(ms / calls.length, 2),
			});
			results.targets.push({
				name: `Enterprise search Return All, ${n.toLocaleString('en')} results: requests`,
				target: capped
					? `= 100 (page cap; ceil(N/80) = ${Math.ceil(n / 80)}), hint shown`
					: `= ceil(N/80) = ${expected}`,
				value: `${calls.length} requests, ${run.items.length} items${capped ? `, hint ${hinted ? 'shown' : 'missing'}` : ''}, ${Math.round(ms)} ms`,
				met: exact,
			});
			log(
				`paging Enterprise N=${n}: ${calls.length} requests (expected ${expected}), ${run.items.length} items, ${Math.round(ms)} ms`,
			);
		}
	} finally {
		await sim.close();
	}
}
