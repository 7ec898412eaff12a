// Hostile or broken input on every id and text parameter of both action nodes: refused with
// a clear message before any request — the simulator's log proves nothing was sent.
import { runEnterprise, runPartner } from '../../harness/run-gridbank';
import { useSimulator } from '../../harness/simulator';

const sim = useSimulator();

const hostileIds: Array<[string, string]> = [
	['a parent-directory segment', '../content'],
	['a parent segment inside', 'a/../b'],
	['a leading slash', '/videos'],
	['a doubled slash', 'a//b'],
	['an encoded slash', 'a%2Fb'],
	['an encoded backslash', 'a%5Cb'],
	['a backslash', 'a\\b'],
	['a newline', 'abc\ndef'],
	['a NUL byte', 'abc\u0000'],
	['10,000 characters', 'x'.repeat(10_000)],
	['an expression resolving to an object', '={{ { id: "x" } }}'],
	['an expression resolving to null', '={{ null }}'],
	['an expression resolving to a number', '={{ 12345 }}'],
	['an expression resolving to a list', '={{ ["a", "b"] }}'],
	['an expression resolving to nothing', '={{ "   " }}'],
];

const targets = [
	{
		node: 'gridBankPartner',
		field: 'Video Key',
		parameters: (id: string) => ({ operation: 'getDownloadUrl', videoKey: id, download: true }),
	},
	{
		node: 'gridBankEnterprise',
		field: 'Video ID',
		parameters: (id: string) => ({ resource: 'video', operation: 'get', videoId: id }),
	},
	{
		node: 'gridBankEnterprise',
		field: 'Video ID',
		parameters: (id: string) => ({
			resource: 'video',
			operation: 'getDownload',
			videoId: id,
			download: true,
		}),
	},
];

describe.each(targets.map((t) => [`${t.node} ${String(t.parameters('x').operation)}`, t] as const))(
	'%s',
	(_name, target) => {
		test.each(hostileIds)('%s', async (_label, id) => {
			const run = await (target.node === 'gridBankPartner' ? runPartner : runEnterprise)(
				target.parameters(id),
			);
			expect(run.items).toEqual([]);
			expect(run.error?.message).toContain(target.field);
			expect(run.error?.message.length).toBeLessThan(300);
			expect(sim().log).toEqual([]);
		});
	},
);

describe('Enterprise search input', () => {
	const search = (query: unknown, filters: Record<string, unknown> = {}) =>
		runEnterprise({ resource: 'video', operation: 'search', query, filters });

	test.each([
		['an empty query', '={{ "" }}', /Query/],
		['a query of 201 characters', 'q'.repeat(201), /Query/],
		['a query resolving to an object', '={{ { q: 1 } }}', /Query/],
		['a query resolving to null', '={{ null }}', /Query/],
	])('%s', async (_label, query, message) => {
		const run = await search(query);
		expect(run.error?.message).toMatch(message);
		expect(sim().log).toEqual([]);
	});

	test.each([
		['a negative minimum duration', { durationMin: -1 }],
		['a minimum above the maximum', { durationMin: 60, durationMax: 30 }],
	])('%s', async (_label, filters) => {
		const run = await search('footage', filters);
		expect(run.error?.message).toMatch(/[Dd]uration/);
		expect(sim().log).toEqual([]);
	});
});
