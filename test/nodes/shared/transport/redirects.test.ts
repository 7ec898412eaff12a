// Every request the nodes make with the key goes to the credential's origin only: a redirect to
// another origin is refused before any request to it, one within the API's origin is followed
// (a few hops at most). And the Base URL is strict: https, plain http only for loopback hosts,
// no user name, password, query string or fragment.
import { DEMO_PARTNER_KEY } from '../../../../simulator';
import { useSimulator } from '../../../harness/simulator';
import { pollTrigger, runEnterprise, runPartner } from '../../../harness/run-gridbank';

const sim = useSimulator();
const licensed = () => sim().partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
const redirected = () => sim().log.filter((entry) => entry.target === 'redirect');

type Case = [string, 'gridBankPartner' | 'gridBankEnterprise', Record<string, unknown>];
const cases: Case[] = [
	['Partner list', 'gridBankPartner', { operation: 'listContent', returnAll: true }],
	[
		'Partner download URL',
		'gridBankPartner',
		{ operation: 'getDownloadUrl', videoKey: '={{ $json.key }}' },
	],
	[
		'Enterprise search',
		'gridBankEnterprise',
		{ resource: 'video', operation: 'search', query: 'footage', limit: 3 },
	],
	[
		'Enterprise get',
		'gridBankEnterprise',
		{ resource: 'video', operation: 'get', videoId: 'ocean/aerial_shot-0001' },
	],
	['Enterprise usage', 'gridBankEnterprise', { resource: 'usage', operation: 'get' }],
	[
		'Enterprise get download',
		'gridBankEnterprise',
		{ resource: 'video', operation: 'getDownload', videoId: 'ocean/aerial_shot-0001' },
	],
];

const run = (
	type: Case[1],
	parameters: Record<string, unknown>,
	baseUrl = sim().baseUrl,
	continueOnFail = false,
) =>
	(type === 'gridBankPartner' ? runPartner : runEnterprise)(parameters, {
		baseUrl,
		input: [{ key: licensed() }],
		continueOnFail,
	});

describe.each(cases)('%s', (_label, type, parameters) => {
	test('a redirect to another origin is refused: that origin receives nothing', async () => {
		sim().faults.redirectApi({ to: 'other', count: 1 });
		const result = await run(type, parameters);
		expect(result.error?.message).toMatch(
			/^GridBank redirected the request to another address \(host 127\.0\.0\.1:\d+\); the key was not sent there$/,
		);
		expect(result.error?.httpCode).toBe('302');
		expect(redirected()).toEqual([]);
	});

	test('a redirect within the API origin is followed with the key', async () => {
		sim().faults.redirectApi({ to: 'same', count: 2, status: 307 });
		const result = await run(type, parameters);
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThan(0);
		const api = sim().log.filter((entry) => entry.target === 'api');
		expect(api.slice(0, 3).map((entry) => entry.status)).toEqual([307, 307, 200]);
		expect(api[2].headers.authorization).toMatch(/^Bearer /);
	});

	test('a redirect loop within the origin ends after a few hops', async () => {
		sim().faults.redirectApi({ to: 'same', count: 50 });
		const result = await run(type, parameters);
		expect(result.error?.message).toMatch(
			/^GridBank redirected the request more than 5 times in a row/,
		);
		expect(sim().log.filter((entry) => entry.target === 'api').length).toBe(6);
	});
});

test('the trigger refuses a redirect to another origin too', async () => {
	const trigger = pollTrigger();
	sim().faults.redirectApi({ to: 'other', count: 1 });
	const poll = await trigger.activate();
	expect(String((poll.error as Error | undefined)?.message)).toMatch(
		/redirected the request to another address .*the key was not sent there/,
	);
	expect(redirected()).toEqual([]);
});

describe('the Base URL is strict', () => {
	const port = () => new URL(sim().baseUrl).port;
	test.each([
		['http://api2.gridbank.example', /must start with https:\/\//],
		['ftp://127.0.0.1', /is not a valid http\(s\) URL/],
		['https://user@api2.gridbank.example', /contains a user name$/],
		['https://user:hunter2pass@api2.gridbank.example', /contains a user name and a password$/],
		['https://:hunter2pass@api2.gridbank.example', /contains a password$/],
		['https://api2.gridbank.example/?region=eu', /contains a query string$/],
		['https://api2.gridbank.example/#top', /contains a fragment$/],
	])('%s is refused before any request', async (baseUrl, message) => {
		for (const [, type, parameters] of cases.slice(0, 1).concat(cases.slice(4, 5))) {
			const result = await run(type, parameters, baseUrl, true);
			expect(result.items[0].json.error).toMatch(message);
			expect(JSON.stringify(result.run)).not.toContain('hunter2pass');
		}
		expect(sim().log).toEqual([]);
	});

	test.each([
		() => `HTTP://127.0.0.1:${port()}`,
		() => `http://localhost:${port()}/`,
		() => `hTTp://127.0.0.1:${port()}//`,
	])('loopback over plain http is allowed, any scheme case (%#)', async (baseUrl) => {
		const result = await run(
			'gridBankPartner',
			{ operation: 'listContent', returnAll: false, limit: 2 },
			baseUrl(),
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
	});

	test('the trigger stores nothing of a refused Base URL', async () => {
		const trigger = pollTrigger({}, { baseUrl: `http://someone:hunter2pass@127.0.0.1:${port()}` });
		const poll = await trigger.activate();
		expect(String((poll.error as Error | undefined)?.message)).toMatch(
			/contains a user name and a password/,
		);
		expect(JSON.stringify(trigger.nodeState ?? {})).not.toMatch(/someone|hunter2pass/);
		expect(sim().log).toEqual([]);
	});
});
