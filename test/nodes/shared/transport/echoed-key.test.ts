// A GridBank, proxy or storage that echoes the Authorization header (and the bare secret, and a
// JSON-escaped copy) into every error body, HTML page and a response header: on all three
// nodes and every status the nodes map, the key appears nowhere n8n keeps or shows it:
// messages, descriptions, error context, continueOnFail items, trigger static data, log lines.
import { DEMO_ENTERPRISE_KEY, DEMO_PARTNER_KEY } from '../../../../simulator';
import { outputCapture } from '../../../harness/capture-output';
import { useSimulator } from '../../../harness/simulator';
import { pollTrigger } from '../../../harness/run-gridbank';
import { failingRunTexts } from '../../../harness/shown-texts';

process.env.N8N_LOG_LEVEL = 'debug';

const sim = useSimulator();
const REVOKED = 'apik_gone.revoked-secret-part';

const output = outputCapture();

type Node = 'gridBankPartner' | 'gridBankEnterprise' | 'gridBankPartnerTrigger';
type Scenario = [
	label: string,
	arrange: (node: Node) => { key?: string; parameters?: Record<string, unknown> } | void,
];
const partnerList = {
	operation: 'listContent',
	returnAll: false,
	limit: 2,
	options: { maxRetries: 0 },
};
const enterpriseUsage = { resource: 'usage', operation: 'get', options: { maxRetries: 0 } };
const byNode = (
	node: Node,
	partner: Record<string, unknown>,
	enterprise: Record<string, unknown>,
) =>
	node === 'gridBankEnterprise'
		? enterprise
		: node === 'gridBankPartner'
			? partner
			: { options: { maxRetries: 0 } };

const scenarios: Scenario[] = [
	['400', () => sim().faults.failNext({ status: 400, count: 10 })],
	[
		'401',
		(node) => ({ key: node === 'gridBankEnterprise' ? 'ent_revoked_secret_value' : REVOKED }),
	],
	[
		'403',
		(node) => {
			if (node === 'gridBankEnterprise') sim().faults.setSubscription(DEMO_ENTERPRISE_KEY, false);
			else sim().faults.withdrawPartnerAccess(DEMO_PARTNER_KEY);
			return {
				parameters: byNode(node, partnerList, {
					resource: 'video',
					operation: 'get',
					videoId: 'ocean/aerial_shot-0001',
				}),
			};
		},
	],
	['404', () => sim().faults.failNext({ status: 404, count: 10 })],
	[
		'404 for one video',
		(node) => {
			if (node === 'gridBankPartnerTrigger') sim().faults.failNext({ status: 404, count: 10 });
			return {
				parameters: byNode(
					node,
					{ operation: 'getDownloadUrl', videoKey: 'nope' },
					{ resource: 'video', operation: 'get', videoId: 'no-such-video' },
				),
			};
		},
	],
	[
		'422',
		() =>
			sim().faults.failNext({
				status: 422,
				count: 10,
				validation: [{ loc: ['query', 'x'], msg: 'bad', type: 't' }],
			}),
	],
	['429', () => sim().faults.failNext({ status: 429, count: 10, retryAfter: '0' })],
	['500', () => sim().faults.failNext({ status: 500, count: 10 })],
	['502 HTML', () => sim().faults.failNext({ status: 502, count: 10, htmlBody: true })],
	['403 HTML', () => sim().faults.failNext({ status: 403, count: 10, htmlBody: true })],
];

const nodes: Node[] = ['gridBankPartner', 'gridBankEnterprise', 'gridBankPartnerTrigger'];

describe.each(nodes)('%s', (node) => {
	test.each(scenarios.map(([label, arrange]) => [label, arrange] as const))(
		'%s',
		async (_label, arrange) => {
			sim().reset();
			sim().faults.echoAuthorization(true);
			const arranged = arrange(node) ?? {};
			const partnerSide = node !== 'gridBankEnterprise';
			const apiKey = arranged.key ?? (partnerSide ? DEMO_PARTNER_KEY : DEMO_ENTERPRISE_KEY);
			const parameters = arranged.parameters ?? byNode(node, partnerList, enterpriseUsage);
			output.start();
			let written = '';
			const everything: string[] = [];
			try {
				everything.push(...(await failingRunTexts(node, parameters, apiKey)));
			} finally {
				written = output.stop();
			}
			// The fault really echoed the key: the simulator answered with it.
			expect(sim().log.some((entry) => entry.status >= 400)).toBe(true);
			const secret = apiKey.includes('.') ? apiKey.split('.')[1] : apiKey;
			for (const needle of [apiKey, secret]) {
				for (const text of everything) expect(text).not.toContain(needle);
				expect(written).not.toContain(needle);
			}
		},
	);
});

test('trigger: a listing whose text carries the key reaches neither items nor the saved state with it', async () => {
	sim().reset();
	const { key } = sim().createPartnerAccount({
		licences: 2,
		purchasedAtStart: Math.floor(Date.now() / 1000) - 30 * 86_400,
	});
	const secret = key.split('.')[1];
	const trigger = pollTrigger({ download: true }, { apiKey: key, pollBudgetMs: 1 });
	expect((await trigger.activate()).error).toBeUndefined();
	const ids = sim().addEnterpriseVideos(
		[1, 2, 3].map((n) => ({ title: `Clip ${n} for Bearer ${key} (${secret})` })),
	);
	sim().addPartnerLicences(key, 3, { videoKeys: ids });
	const poll = await trigger.tick();
	expect(poll.items).toHaveLength(1);
	const pending = (trigger.nodeState as { backlog?: unknown[] }).backlog;
	expect(pending).toHaveLength(2);
	for (const text of [JSON.stringify(poll.items), JSON.stringify(trigger.nodeState)]) {
		expect(text).toContain('[redacted]');
		expect(text).not.toContain(secret);
	}
});
