// A server, proxy or gateway echoing the key in any encoding (simulator's echoKeyForms:
// base64 / base64url of the key, of "Bearer <key>" and of the secret; hex; other letter cases;
// every character percent-encoded; HTML entities; prefixes cut after 12 characters of the
// secret; and what stays readable: hex with ":" between pairs, the key split by a space, a line
// break or a quoted-printable soft break, an xxd dump, base64 wrapped at 76 columns, 12
// characters from the middle of the secret): on all three nodes, none of it reaches execution data, error messages,
// descriptions, Continue On Fail items, the trigger's saved state or log lines.
import { DEMO_ENTERPRISE_KEY, DEMO_PARTNER_KEY, keyForms } from '../../../../simulator';
import { outputCapture } from '../../../harness/capture-output';
import { useSimulator } from '../../../harness/simulator';
import { pollTrigger, runPartner } from '../../../harness/run-gridbank';
import { failingRunTexts } from '../../../harness/shown-texts';

process.env.N8N_LOG_LEVEL = 'debug';

const sim = useSimulator();
const output = outputCapture();

type Node = 'gridBankPartner' | 'gridBankEnterprise' | 'gridBankPartnerTrigger';
const nodes: Node[] = ['gridBankPartner', 'gridBankEnterprise', 'gridBankPartnerTrigger'];

const partnerList = { operation: 'listContent', limit: 2, options: { maxRetries: 0 } };
const enterpriseUsage = { resource: 'usage', operation: 'get', options: { maxRetries: 0 } };
const parametersOf = (node: Node, partner = partnerList, enterprise = enterpriseUsage) =>
	node === 'gridBankEnterprise'
		? enterprise
		: node === 'gridBankPartner'
			? partner
			: { options: { maxRetries: 0 } };

/** Every trace of the key that must not be left: the echoed forms, the key, the secret and its cut prefix, in any case. */
function expectNoTrace(texts: string[], apiKey: string) {
	const secret = apiKey.includes('.') ? apiKey.slice(apiKey.indexOf('.') + 1) : apiKey;
	const forms = keyForms(`Bearer ${apiKey}`).map((form) => form.replace(/\.\.\.$/, ''));
	// Any 12 consecutive characters of the secret count as the secret (field hardening IV).
	const windows = [...secret].slice(0, -11).map((_, at) => secret.slice(at, at + 12));
	const needles = [...forms, apiKey, secret, ...windows].map((n) => n.toLowerCase());
	for (const text of texts) {
		const lower = text.toLowerCase();
		for (const needle of needles)
			expect({ needle, found: lower.includes(needle) }).toEqual({ needle, found: false });
	}
}

const scenarios: Array<[string, (node: Node) => Record<string, unknown> | void]> = [
	['400', () => sim().faults.failNext({ status: 400, count: 10 })],
	[
		'403 access withdrawn / no subscription',
		(node) => {
			if (node === 'gridBankEnterprise') sim().faults.setSubscription(DEMO_ENTERPRISE_KEY, false);
			else sim().faults.withdrawPartnerAccess(DEMO_PARTNER_KEY);
			if (node === 'gridBankEnterprise')
				return { resource: 'video', operation: 'get', videoId: 'ocean/aerial_shot-0001' };
			return undefined;
		},
	],
	[
		'404 for one video',
		(node) => {
			if (node === 'gridBankPartnerTrigger') sim().faults.failNext({ status: 404, count: 10 });
			return parametersOf(
				node,
				{ operation: 'getDownloadUrl', videoKey: 'nope' } as never,
				{ resource: 'video', operation: 'get', videoId: 'no-such-video' } as never,
			);
		},
	],
	['500', () => sim().faults.failNext({ status: 500, count: 10 })],
	['502 HTML page', () => sim().faults.failNext({ status: 502, count: 10, htmlBody: true })],
];

describe.each(nodes)('%s', (node) => {
	test.each(scenarios)('%s', async (_label, arrange) => {
		sim().faults.echoKeyForms(true);
		const parameters = arrange(node) ?? parametersOf(node);
		const apiKey = node === 'gridBankEnterprise' ? DEMO_ENTERPRISE_KEY : DEMO_PARTNER_KEY;
		const everything: string[] = [];
		output.start();
		let written = '';
		try {
			everything.push(...(await failingRunTexts(node, parameters, apiKey)));
		} finally {
			written = output.stop();
		}
		// The simulator did echo the forms; where the node quotes GridBank (not a 404, nor an
		// activation error on n8n 1.x, which drops descriptions) it shows what it scrubbed.
		expect(sim().log.some((entry) => entry.status >= 400)).toBe(true);
		const shown = everything.join('\n');
		const quoted =
			node === 'gridBankPartnerTrigger'
				? shown.includes('GridBank said')
				: !shown.includes('No video');
		if (quoted) expect(shown).toContain('[redacted]');
		expectNoTrace([...everything, written], apiKey);
	});
});

test('listings whose titles carry every form of the key: items and saved state keep none of it', async () => {
	const { key } = sim().createPartnerAccount({
		licences: 2,
		purchasedAtStart: Math.floor(Date.now() / 1000) - 30 * 86_400,
	});
	const forms = keyForms(`Bearer ${key}`);
	const trigger = pollTrigger({}, { apiKey: key });
	expect((await trigger.activate()).error).toBeUndefined();
	const ids = sim().addEnterpriseVideos(forms.map((form, n) => ({ title: `Clip ${n}: ${form}` })));
	sim().addPartnerLicences(key, ids.length, { videoKeys: ids });
	output.start();
	let written = '';
	const everything: string[] = [];
	try {
		const poll = await trigger.tick();
		expect(poll.items).toHaveLength(ids.length);
		everything.push(JSON.stringify(poll.items), JSON.stringify(trigger.nodeState));
		const list = await runPartner({ operation: 'listContent', limit: ids.length }, { apiKey: key });
		expect(list.items).toHaveLength(ids.length);
		everything.push(JSON.stringify(list.run));
	} finally {
		written = output.stop();
	}
	expect(everything.join('\n')).toContain('[redacted]');
	expectNoTrace([...everything, written], key);
});
