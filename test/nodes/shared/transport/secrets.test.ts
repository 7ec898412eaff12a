// Every error path of both action nodes, with n8n's logging at debug: the API key, and its
// secret part alone, appear nowhere in run data, items, errors (message, description,
// context, stack) or anything written to the console.
import { DEMO_ENTERPRISE_KEY, DEMO_PARTNER_KEY } from '../../../../simulator';
import { runEnterprise, runPartner } from '../../../harness/run-gridbank';
import { deleteBinaries } from '../../../harness/run-node';
import { outputCapture } from '../../../harness/capture-output';
import { useSimulator } from '../../../harness/simulator';

// Read when n8n first builds its config, which happens on the first run below.
process.env.N8N_LOG_LEVEL = 'debug';

const sim = useSimulator();
const PARTNER_SECRET = DEMO_PARTNER_KEY.split('.')[1];
const REVOKED = 'apik_gone.revoked-secret-part';

const output = outputCapture();

type Scenario = {
	label: string;
	type: 'gridBankPartner' | 'gridBankEnterprise';
	key?: string;
	arrange?: () => void;
	parameters: Record<string, unknown>;
};
const licensed = () => sim().partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
const scenarios: Scenario[] = [
	{
		label: 'partner: success with download',
		type: 'gridBankPartner',
		parameters: { operation: 'getDownloadUrl', videoKey: '={{ $json.key }}', download: true },
	},
	{
		label: 'partner: 401',
		type: 'gridBankPartner',
		key: REVOKED,
		parameters: { operation: 'listContent', returnAll: true },
	},
	{
		label: 'partner: malformed key',
		type: 'gridBankPartner',
		key: `nokey${PARTNER_SECRET}`,
		parameters: { operation: 'listContent', returnAll: true },
	},
	{
		label: 'partner: 403 not licensed',
		type: 'gridBankPartner',
		parameters: { operation: 'getDownloadUrl', videoKey: '={{ $json.unlicensed }}' },
	},
	{
		label: 'partner: 403 revoked access',
		type: 'gridBankPartner',
		arrange: () => sim().faults.withdrawPartnerAccess(DEMO_PARTNER_KEY),
		parameters: { operation: 'listContent', returnAll: true },
	},
	{
		label: 'partner: 404',
		type: 'gridBankPartner',
		parameters: { operation: 'getDownloadUrl', videoKey: 'nope' },
	},
	{
		label: 'partner: 422',
		type: 'gridBankPartner',
		arrange: () => sim().faults.failNext({ status: 422, count: 1 }),
		parameters: { operation: 'listContent', returnAll: true },
	},
	{
		label: 'partner: 429 exhausted',
		type: 'gridBankPartner',
		arrange: () => sim().faults.failNext({ status: 429, count: 5, retryAfter: '0' }),
		parameters: { operation: 'listContent', returnAll: true, options: { maxRetries: 1 } },
	},
	{
		label: 'partner: 502 HTML exhausted',
		type: 'gridBankPartner',
		arrange: () => sim().faults.failNext({ status: 502, count: 5, htmlBody: true }),
		parameters: { operation: 'listContent', returnAll: true, options: { maxRetries: 0 } },
	},
	{
		label: 'partner: connection reset',
		type: 'gridBankPartner',
		arrange: () => sim().faults.resetConnections({ count: 5 }),
		parameters: { operation: 'listContent', returnAll: true, options: { maxRetries: 0 } },
	},
	{
		label: 'partner: not JSON',
		type: 'gridBankPartner',
		arrange: () => sim().faults.nonJsonOkBody('/content', 5),
		parameters: { operation: 'listContent', returnAll: true, options: { maxRetries: 0 } },
	},
	{
		label: 'partner: storage refused twice',
		type: 'gridBankPartner',
		arrange: () => sim().faults.storageRefuse(403, 2),
		parameters: { operation: 'getDownloadUrl', videoKey: '={{ $json.key }}', download: true },
	},
	{
		label: 'partner: download cut short',
		type: 'gridBankPartner',
		arrange: () => sim().faults.declareWrongLength(100, 5),
		parameters: {
			operation: 'getDownloadUrl',
			videoKey: '={{ $json.key }}',
			download: true,
			options: { maxRetries: 0 },
		},
	},
	{
		label: 'partner: edge 403',
		type: 'gridBankPartner',
		arrange: () => sim().faults.edgeBlock(true),
		parameters: { operation: 'listContent', returnAll: true },
	},
	{
		label: 'partner: bad video key',
		type: 'gridBankPartner',
		parameters: { operation: 'getDownloadUrl', videoKey: '../x' },
	},
	{
		label: 'enterprise: success search',
		type: 'gridBankEnterprise',
		parameters: { resource: 'video', operation: 'search', query: 'footage', limit: 3 },
	},
	{
		label: 'enterprise: 401',
		type: 'gridBankEnterprise',
		key: 'ent_revoked_secret_value',
		parameters: { resource: 'usage', operation: 'get' },
	},
	{
		label: 'enterprise: 403 no subscription',
		type: 'gridBankEnterprise',
		arrange: () => sim().faults.setSubscription(DEMO_ENTERPRISE_KEY, false),
		parameters: { resource: 'video', operation: 'get', videoId: 'ocean/aerial_shot-0001' },
	},
	{
		label: 'enterprise: 404',
		type: 'gridBankEnterprise',
		parameters: { resource: 'video', operation: 'get', videoId: 'no-such-video' },
	},
	{
		label: 'enterprise: 422',
		type: 'gridBankEnterprise',
		parameters: {
			resource: 'video',
			operation: 'search',
			query: 'footage',
			filters: { sort: '={{ "loudest" }}' },
		},
	},
	{
		label: 'enterprise: 500 exhausted',
		type: 'gridBankEnterprise',
		arrange: () => sim().faults.failNext({ status: 500, count: 5 }),
		parameters: { resource: 'usage', operation: 'get', options: { maxRetries: 0 } },
	},
	{
		label: 'enterprise: download refused twice',
		type: 'gridBankEnterprise',
		arrange: () => sim().faults.storageRefuse(403, 2),
		parameters: {
			resource: 'video',
			operation: 'getDownload',
			videoId: 'ocean/aerial_shot-0001',
			download: true,
		},
	},
];

describe.each([false, true])('continueOnFail %s', (continueOnFail) => {
	test.each(scenarios.map((s) => [s.label, s] as const))('%s', async (label, scenario) => {
		sim().faults.setSubscription(DEMO_ENTERPRISE_KEY, true);
		scenario.arrange?.();
		const apiKey =
			scenario.key ??
			(scenario.type === 'gridBankPartner' ? DEMO_PARTNER_KEY : DEMO_ENTERPRISE_KEY);
		output.start();
		let written = '';
		let everything: string;
		try {
			const run = await (scenario.type === 'gridBankPartner' ? runPartner : runEnterprise)(
				scenario.parameters,
				{
					apiKey,
					input: [{ key: licensed(), unlicensed: sim().unlicensedVideoKey(DEMO_PARTNER_KEY) }],
					continueOnFail,
				},
			);
			await deleteBinaries(run);
			if (!label.includes('success')) expect(run.error ?? run.items[0]?.json.error).toBeDefined();
			everything =
				JSON.stringify(run.run) + JSON.stringify(run.error ?? {}) + String(run.error?.stack ?? '');
		} finally {
			written = output.stop();
		}
		expect(written.length).toBeGreaterThan(0);
		const needles = [
			DEMO_PARTNER_KEY,
			PARTNER_SECRET,
			DEMO_ENTERPRISE_KEY,
			apiKey,
			apiKey.split('.')[1] ?? apiKey,
		];
		for (const needle of needles) {
			expect(everything).not.toContain(needle);
			expect(written).not.toContain(needle);
		}
	});
});
