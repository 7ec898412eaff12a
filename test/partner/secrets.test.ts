// The API key, and its secret part alone, appear nowhere in what a run leaves behind:
// output items, errors (message, description, context, cause) or the whole run data.
import { DEMO_PARTNER_KEY } from '../simulator';
import { deleteBinaries, runNode } from '../harness/run-node';
import { useSimulator } from '../harness/simulator';

const sim = useSimulator();
const secret = DEMO_PARTNER_KEY.split('.')[1];

type Scenario = [string, () => void, Record<string, unknown>];
const licensed = () => sim().partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
const scenarios: Scenario[] = [
	['success with download', () => {}, { operation: 'getDownloadUrl', videoKey: '={{ $json.key }}', download: true }],
	['401', () => {}, { operation: 'listContent', returnAll: true }],
	['403 not licensed', () => {}, { operation: 'getDownloadUrl', videoKey: '={{ $json.unlicensed }}' }],
	['404', () => {}, { operation: 'getDownloadUrl', videoKey: 'nope' }],
	['429 exhausted', () => sim().faults.failNext({ status: 429, count: 5, retryAfter: '0' }), { operation: 'listContent', returnAll: true, options: { maxRetries: 1 } }],
	['502 exhausted', () => sim().faults.failNext({ status: 502, count: 5, htmlBody: true }), { operation: 'listContent', returnAll: true, options: { maxRetries: 0 } }],
	['connection reset exhausted', () => sim().faults.resetConnections({ count: 5 }), { operation: 'listContent', returnAll: true, options: { maxRetries: 0 } }],
	['storage refused twice', () => sim().faults.storageRefuse(403, 2), { operation: 'getDownloadUrl', videoKey: '={{ $json.key }}', download: true }],
	['download cut short', () => sim().faults.cutDownloadAfter(100, 5), { operation: 'getDownloadUrl', videoKey: '={{ $json.key }}', download: true, options: { maxRetries: 0 } }],
	['edge 403', () => sim().faults.edgeBlock(true), { operation: 'listContent', returnAll: true }],
];

describe.each([false, true])('continueOnFail %s', (continueOnFail) => {
	test.each(scenarios)('%s', async (label, arrange, parameters) => {
		sim().faults.clear();
		arrange();
		const apiKey = label === '401' ? 'apik_revoked.not-this-one' : DEMO_PARTNER_KEY;
		const run = await runNode({
			type: 'gridBankPartner',
			parameters,
			credentials: { gridBankPartnerApi: { apiKey, baseUrl: sim().baseUrl } },
			input: [{ key: licensed(), unlicensed: sim().unlicensedVideoKey(DEMO_PARTNER_KEY) }],
			continueOnFail,
		});
		await deleteBinaries(run);
		if (label !== 'success with download') expect(run.error ?? run.items[0].json.error).toBeDefined();
		const everything = JSON.stringify(run.run) + JSON.stringify(run.error ?? {}) + String(run.error?.stack ?? '');
		for (const needle of [DEMO_PARTNER_KEY, secret, apiKey, apiKey.split('.')[1]]) expect(everything).not.toContain(needle);
	});
});
