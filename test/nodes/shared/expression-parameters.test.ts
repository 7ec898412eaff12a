// Booleans and numbers from expressions ($fromAI, {{ }}) as strings: "true"/"false" and numeric
// strings read as meant, anything else refused with the parameter's display name before any
// request. Today's bugs: `download: "false"` downloaded, `returnAll: "false"` returned all.
import { DEMO_PARTNER_KEY } from '../../../simulator';
import { cleanUpBinaries } from '../../harness/run-node';
import { apiCalls, useSimulator } from '../../harness/simulator';
import { pollTrigger, runEnterprise, runPartner } from '../../harness/run-gridbank';
import { keysOf } from '../GridBankPartnerTrigger/helpers';

const sim = useSimulator();
const keep = cleanUpBinaries();

/** What an expression such as {{ $fromAI('download') }} hands the node: the value as a string. */
const expr = (text: string) => `={{ ${JSON.stringify(text)} }}`;
const licensed = (n: number) => sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;
const storage = () => sim().log.filter((e) => e.target === 'storage');

test('Partner Download File "false" does not download; "TRUE" does', async () => {
	const key = licensed(0);
	sim().setVideoFile(key, { size: 1000 });
	const off = await keep(
		await runPartner({ operation: 'getDownloadUrl', videoKey: key, download: expr('false') }),
	);
	expect(off.error).toBeUndefined();
	expect(off.items[0].binary).toBeUndefined();
	expect(storage()).toEqual([]);
	const on = await keep(
		await runPartner({ operation: 'getDownloadUrl', videoKey: key, download: expr(' TRUE ') }),
	);
	expect(on.error).toBeUndefined();
	expect(on.items[0].json.fileSize).toBe(1000);
});

test('Partner Return All "false" with Limit "3": three videos, one request of 3', async () => {
	const run = await keep(
		await runPartner({
			operation: 'listContent',
			returnAll: expr('false'),
			limit: expr('3'),
			options: { maxRetries: expr('2') },
		}),
	);
	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(3);
	expect(apiCalls(sim(), '/content').map((c) => c.query.per_page)).toEqual(['3']);
});

test.each([
	[{ returnAll: expr('yes') }, 'Return All must be true or false', /Got "yes"/],
	[{ returnAll: 1 }, 'Return All must be true or false', /Got 1/],
	[{ limit: expr('ten') }, 'Limit must be a whole number of at least 1', /Got "ten"/],
	[{ limit: expr(' ') }, 'Limit must be a whole number of at least 1', /Got " "/],
	[{ limit: true }, 'Limit must be a whole number of at least 1', /Got true/],
	[
		{ options: { maxRetries: expr('many') } },
		'Max Retries must be a whole number of at least 0',
		/Got "many"/,
	],
	[{ options: { maxRetries: -1 } }, 'Max Retries must be a whole number of at least 0', /Got -1/],
])('List %p → refused before any request', async (parameters, message, description) => {
	const run = await keep(await runPartner({ operation: 'listContent', limit: 5, ...parameters }));
	expect(run.items).toEqual([]);
	expect(run.error?.message).toBe(message);
	expect(run.error?.description).toMatch(description);
	expect(sim().log).toEqual([]);
});

test('Partner Download File "no" is refused, nothing sent', async () => {
	const run = await keep(
		await runPartner({ operation: 'getDownloadUrl', videoKey: licensed(0), download: expr('no') }),
	);
	expect(run.error?.message).toBe('Download File must be true or false');
	expect(sim().log).toEqual([]);
});

test('Enterprise Search Return All "false", Limit "5", Min Duration "0"; Get Download "false"', async () => {
	const search = await keep(
		await runEnterprise({
			resource: 'video',
			operation: 'search',
			query: 'footage',
			returnAll: expr('false'),
			limit: expr('5'),
			filters: { durationMin: expr('0') },
		}),
	);
	expect(search.error).toBeUndefined();
	expect(search.items).toHaveLength(5);
	const url = await keep(
		await runEnterprise({
			resource: 'video',
			operation: 'getDownload',
			videoId: licensed(0),
			download: expr('false'),
		}),
	);
	expect(url.error).toBeUndefined();
	expect(url.items[0].binary).toBeUndefined();
	expect(storage()).toEqual([]);
});

test('Partner Trigger: Include Existing Licences "true", Max Existing Licences "2"', async () => {
	const key = sim().createPartnerAccount({ licences: 5 }).key;
	const trigger = pollTrigger(
		{ download: expr('false'), options: { includeExisting: expr('true'), maxExisting: expr('2') } },
		{ apiKey: key },
	);
	const activation = await trigger.activate();
	expect(activation.error).toBeUndefined();
	expect(keysOf(activation.items)).toHaveLength(2);
});
