// Paging always ends, within a few requests, whatever the API sends: a next_cursor that repeats
// or cycles, pages that add no new video (empty, without a list, or repeating a page) fail with
// a clear error on List Licensed Content and the trigger; Enterprise pages that stay empty while
// has_more says more stop the search cleanly with a hint.
import type { PartnerPagingFault } from '../../../../simulator';
import { apiCalls, useSimulator } from '../../../harness/simulator';
import { pollTrigger, runEnterprise, runPartner } from '../../../harness/run-gridbank';

const sim = useSimulator();

const styles: Array<[Exclude<PartnerPagingFault, 'off'>, RegExp, number]> = [
	['repeatCursor', /GridBank sent a page cursor it had already sent/, 2],
	['cycleCursors', /GridBank sent a page cursor it had already sent/, 3],
	['emptyPages', /GridBank sent 3 pages in a row without a new video/, 4],
	['missingList', /GridBank sent 3 pages in a row without a new video/, 4],
	['duplicatePages', /GridBank sent 3 pages in a row without a new video/, 4],
];

describe.each(styles)('Partner paging fault %s', (style, message, requests) => {
	test(`List Licensed Content (Return All) fails after ${requests} requests`, async () => {
		const { key } = sim().createPartnerAccount({ licences: 450 });
		sim().faults.partnerPaging(style);
		const run = await runPartner({ operation: 'listContent', returnAll: true }, { apiKey: key });
		expect(run.error?.message).toMatch(
			new RegExp(`^The list of videos did not end: ${message.source}$`),
		);
		expect(run.error?.description).toMatch(
			new RegExp(
				`^Paging was stopped after ${requests} requests so the workflow cannot loop forever`,
			),
		);
		expect(apiCalls(sim(), '/partner/v1/content')).toHaveLength(requests);
	});

	test('the trigger poll fails the same way, then emits every new licence exactly once when paging recovers', async () => {
		const { key } = sim().createPartnerAccount({
			licences: 20,
			purchasedAtStart: Math.floor(Date.now() / 1000) - 7200,
		});
		const trigger = pollTrigger({}, { apiKey: key });
		expect((await trigger.activate()).error).toBeUndefined();
		const added = sim().addPartnerLicences(key, 350);
		sim().faults.partnerPaging(style);
		sim().clearLog();
		const poll = await trigger.tick();
		expect(String((poll.error as Error | undefined)?.message)).toMatch(message);
		expect(apiCalls(sim(), '/partner/v1/content')).toHaveLength(requests);
		sim().faults.partnerPaging('off');
		const recovered = await trigger.tick();
		expect(recovered.error).toBeUndefined();
		expect((recovered.items ?? []).map((item) => item.json.video_key).sort()).toEqual(
			[...added].sort(),
		);
	});
});

test('a cursor restart after a stale cursor is not mistaken for a loop', async () => {
	const { key } = sim().createPartnerAccount({ licences: 650 });
	sim().faults.rejectCursorOnPage(6);
	const run = await runPartner({ operation: 'listContent', returnAll: true }, { apiKey: key });
	expect(run.error).toBeUndefined();
	expect(new Set(run.items.map((item) => item.json.video_key)).size).toBe(650);
});

test('Enterprise: pages that stay empty while has_more is true end the search after 3 of them, with a hint', async () => {
	sim().faults.enterpriseEmptyPages(true);
	const { key } = sim().createEnterpriseAccount();
	const run = await runEnterprise(
		{ resource: 'video', operation: 'search', query: 'footage', returnAll: true },
		{ apiKey: key },
	);
	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(80);
	expect(apiCalls(sim(), '/videos/search')).toHaveLength(4);
	expect(JSON.stringify(run.task.hints ?? run.run.data.resultData)).toMatch(
		/The search stopped early: GridBank sent 3 pages in a row without a new video/,
	);
});
