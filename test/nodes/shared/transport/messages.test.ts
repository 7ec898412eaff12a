// Messages point at the real cause, through the real engine: n8n's generic text never replaces
// the node's connection message, storage faults do not blame the credential's Base URL, a wrong
// Enterprise file_size says expected vs received, a 403 says what GridBank said, and a
// Purchased After without an offset is read in the workflow's time zone.
import { DEMO_PARTNER_KEY } from '../../../../simulator';
import { runEnterprise, runPartner } from '../../../harness/run-gridbank';
import { cleanUpBinaries } from '../../../harness/run-node';
import { useSimulator } from '../../../harness/simulator';

const sim = useSimulator();
const keep = cleanUpBinaries();

const licensed = (n: number) => sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;

test("a connection reset on the API keeps the node's own message (not n8n's ECONNRESET text)", async () => {
	sim().faults.resetConnections({ count: 3, target: 'api' });
	const run = await keep(
		await runPartner({ operation: 'listContent', limit: 5, options: { maxRetries: 0 } }),
	);
	expect(run.error?.message).toBe(
		'Could not reach GridBank: the connection was reset (ECONNRESET)',
	);
	expect(run.error?.description).toMatch(/Base URL/);
});

test('a storage connection failure names storage and does not blame the Base URL', async () => {
	const key = licensed(0);
	sim().setVideoFile(key, { size: 1000 });
	sim().faults.resetConnections({ count: 3, target: 'storage' });
	const run = await keep(
		await runPartner({
			operation: 'getDownloadUrl',
			videoKey: key,
			download: true,
			options: { maxRetries: 0 },
		}),
	);
	expect(run.error?.message).toBe(
		"Could not reach GridBank's file storage: the connection was reset (ECONNRESET)",
	);
	expect(run.error?.description).not.toMatch(/Base URL/);
});

test('an Enterprise file_size smaller than the file: expected vs received, the right way round', async () => {
	const id = licensed(1);
	sim().setVideoFile(id, { size: 5000 });
	sim().faults.misstateFileSize(-1000);
	const run = keep(
		await runEnterprise({
			resource: 'video',
			operation: 'getDownload',
			videoId: id,
			download: true,
		}),
	);
	expect(run.items).toEqual([]);
	expect(run.error?.message).toBe(
		"GridBank's storage holds a file of another size than GridBank announced",
	);
	expect(run.error?.description).toMatch(/the file has 5000 bytes, but 4000 were announced/);
});

describe('a 403 says what GridBank said', () => {
	test('on a download, any code but partner_access_revoked: not licensed, code and message quoted', async () => {
		sim().faults.partnerForbidden('/download', 'geo_blocked');
		const key = licensed(2);
		const run = await keep(
			await runPartner({ operation: 'getDownloadUrl', videoKey: key }, { continueOnFail: true }),
		);
		const { error, description, httpCode } = run.items[0].json;
		expect(error).toBe(`Video "${key}" is not licensed by this account`);
		expect(description).toContain('code "geo_blocked"');
		expect(description).toContain('"Forbidden."');
		expect(httpCode).toBe('403');
	});

	test('on the list, an unknown code: quoted with its message, no video named', async () => {
		sim().faults.partnerForbidden('/content', 'not_licensed');
		const run = await keep(await runPartner({ operation: 'listContent', limit: 5 }));
		expect(run.error?.message).toBe('GridBank refused the request (HTTP 403, code "not_licensed")');
		expect(run.error?.message).not.toMatch(/Video ""/);
		expect(run.error?.description).toContain('code "not_licensed"');
		expect(run.error?.description).toContain('"Forbidden."');
	});

	test('the known not_licensed on a download keeps its message and quotes GridBank', async () => {
		sim().faults.partnerForbidden('/download', 'not_licensed');
		const key = licensed(2);
		const run = await keep(await runPartner({ operation: 'getDownloadUrl', videoKey: key }));
		expect(run.error?.message).toBe(`Video "${key}" is not licensed by this account`);
		expect(run.error?.description).toContain('code "not_licensed"');
	});

	test('partner_access_revoked on a download stays an account problem', async () => {
		sim().faults.partnerForbidden('/download', 'partner_access_revoked');
		const run = await keep(
			await runPartner({ operation: 'getDownloadUrl', videoKey: licensed(2) }),
		);
		expect(run.error?.message).toBe('Partner API access has been withdrawn for this account');
	});

	test("the edge layer's 403 (no envelope) keeps its own message", async () => {
		sim().faults.edgeBlock(true);
		const run = await keep(
			await runPartner({ operation: 'getDownloadUrl', videoKey: licensed(2) }),
		);
		expect(run.error?.message).toBe('GridBank blocked the request before it reached the API');
	});
});

test("Purchased After without an offset is read in the workflow's time zone", async () => {
	const newest = sim().partnerLicences(DEMO_PARTNER_KEY)[0].purchased_at;
	// One second before the newest purchase, as a Tokyo wall-clock time (UTC+9, no DST).
	const tokyo = new Date((newest - 1 + 9 * 3600) * 1000).toISOString().slice(0, 19);
	const expected = sim()
		.partnerLicences(DEMO_PARTNER_KEY)
		.filter((v) => v.purchased_at >= newest).length;
	const run = await keep(
		await runPartner(
			{ operation: 'listContent', returnAll: true, options: { purchasedAfter: tokyo } },
			{ settings: { timezone: 'Asia/Tokyo' } },
		),
	);
	expect(run.error).toBeUndefined();
	expect(expected).toBeGreaterThan(0);
	expect(run.items).toHaveLength(expected);
});
