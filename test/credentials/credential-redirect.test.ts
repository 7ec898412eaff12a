// The credential's "Test connection", run the way n8n's CredentialsTester runs a declarative
// test (n8n-core's ExecuteContext + RoutingNode over a copy of a node whose one property
// routes the test request, then the tester's status rules), against an API that redirects to a
// second loopback origin: that origin must receive nothing, the test must fail saying why.
import { DEMO_ENTERPRISE_KEY, DEMO_PARTNER_KEY } from '../../simulator';
import { credentialTest } from '../harness/credential-test';
import { answersDataUrls, routingErrorKeepsResponse } from '../harness/engine';
import { useSimulator } from '../harness/simulator';

const sim = useSimulator();

const redirected = () => sim().log.filter((entry) => entry.target === 'redirect');

/**
 * The message the tester shows. Where RoutingNode's error has no `cause.response` (n8n-core
 * 1.122), the tester (which reads the rules the same way) never reaches them and shows n8n's own
 * message for the status: the key still goes nowhere else, only the wording differs.
 */
const shown = (ours: RegExp, n8nOwn: RegExp) => (routingErrorKeepsResponse ? ours : n8nOwn);

describe.each([
	['gridBankPartnerApi', DEMO_PARTNER_KEY],
	['gridBankEnterpriseApi', DEMO_ENTERPRISE_KEY],
])('%s connection test', (type, apiKey) => {
	test('passes against the API itself', async () => {
		expect(await credentialTest(type, { apiKey, baseUrl: sim().baseUrl })).toEqual({
			status: 'OK',
			message: expect.any(String),
		});
	});

	test.each([301, 302, 303, 307, 308] as const)(
		'a %s to another origin fails the test, and that origin receives nothing',
		async (status) => {
			sim().faults.redirectApi({ to: 'other', count: 1, status });
			const result = await credentialTest(type, { apiKey, baseUrl: sim().baseUrl });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				shown(
					/redirected the test request to another address .*the key was not sent there/,
					new RegExp(`status code ${status}\\b`),
				),
			);
			expect(redirected()).toEqual([]);
		},
	);

	test('a wrong key fails with the credential message, the key is not in it', async () => {
		const wrong =
			type === 'gridBankPartnerApi' ? 'apik_nobody.wrong-secret-123' : 'ent_wrong_key_123';
		const result = await credentialTest(type, { apiKey: wrong, baseUrl: sim().baseUrl });
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				shown(
					/key is missing, malformed or revoked/,
					/^Authorization failed - please check your credentials$/,
				),
			),
		});
		expect(result.message).not.toContain(wrong);
	});
});

describe('a Base URL the nodes refuse fails the test before anything is sent', () => {
	const port = () => new URL(sim().baseUrl).port;
	test.each([
		[() => `http://someone:hunter2pass@127.0.0.1:${port()}`, 'a user name and password'],
		[() => `http://127.0.0.1:${port()}/?region=eu`, 'a query string'],
		[() => `http://127.0.0.1:${port()}#top`, 'a fragment'],
		[() => 'http://api2.gridbank.example', 'plain http to another host'],
	])('%#: %s', async (baseUrl) => {
		const result = await credentialTest('gridBankPartnerApi', {
			apiKey: DEMO_PARTNER_KEY,
			baseUrl: baseUrl(),
		});
		// n8n shows the HTTP client's code for an address it cannot send to (ERR_BAD_REQUEST).
		expect(result).toEqual({ status: 'Error', message: expect.any(String) });
		expect(result.message).not.toContain('hunter2pass');
		expect(sim().log).toEqual([]);
	});

	test('loopback over plain http, any scheme case, is tested as before', async () => {
		const baseUrl = sim().baseUrl.replace('http://', 'HTTP://');
		expect(
			await credentialTest('gridBankPartnerApi', { apiKey: DEMO_PARTNER_KEY, baseUrl }),
		).toEqual({ status: 'OK', message: expect.any(String) });
	});
});

describe('a Partner key that is not apik_<id>.<secret> fails the test before anything is sent', () => {
	test.each([
		['an Enterprise key', 'ent_live_7f3a9c2b1d'],
		['no dot between id and secret', 'apik_7f3a9c2b1d'],
		['"Bearer " pasted in front', `Bearer ${DEMO_PARTNER_KEY}`],
		['a space inside', 'apik_demo.gridbank partner'],
		['an empty secret', 'apik_demo.'],
	])('%s', async (_label, apiKey) => {
		const result = await credentialTest('gridBankPartnerApi', { apiKey, baseUrl: sim().baseUrl });
		expect(result).toEqual({
			status: 'Error',
			message: answersDataUrls
				? expect.stringContaining('A Partner key looks like apik_<id>.<secret>')
				: 'ERR_BAD_REQUEST',
		});
		expect(result.message).not.toContain(apiKey);
		expect(sim().log).toEqual([]);
	});

	test('a good key pasted with spaces around it is still tested against GridBank', async () => {
		const result = await credentialTest('gridBankPartnerApi', {
			apiKey: ` ${DEMO_PARTNER_KEY}\n`,
			baseUrl: sim().baseUrl,
		});
		expect(result).toEqual({ status: 'OK', message: expect.any(String) });
		expect(sim().log.length).toBeGreaterThan(0);
	});
});
