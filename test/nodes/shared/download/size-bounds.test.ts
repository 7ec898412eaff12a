// Sizes from storage and from the API are bounded before they are used (issue 24, point 2): an
// absurd Content-Range total or Content-Length (beyond the 1 TiB ceiling) or Enterprise
// file_size is refused with a clear error before anything is planned, allocated or stored.
import { DEMO_PARTNER_KEY } from '../../../../simulator';
import { runEnterprise, runPartner } from '../../../harness/run-gridbank';
import { cleanUpBinaries, storedFiles, type NodeRun } from '../../../harness/run-node';
import { storeKeepsPartialFiles } from '../../../harness/engine';
import { useSimulator } from '../../../harness/simulator';

const sim = useSimulator();
const keep = cleanUpBinaries();

const licensed = (n: number) => sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;
const storage = () => sim().log.filter((e) => e.target === 'storage');
const size = 3 * 1024 * 1024 + 11;

const download = async (videoKey: string, parallelConnections: number) =>
	keep(
		await runPartner({
			operation: 'getDownloadUrl',
			videoKey,
			download: true,
			options: { parallelConnections },
		}),
	);

function expectRefused(run: NodeRun, stated: string) {
	expect(run.items).toEqual([]);
	expect(run.error?.message).toBe("GridBank's storage stated an impossible file size");
	expect(run.error?.description).toContain(`${stated} bytes`);
	expect(run.error?.description).toContain('1 TiB');
	if (!storeKeepsPartialFiles) expect(storedFiles(run)).toEqual([]);
}

test.each([1, 8])(
	'a Content-Range total of 1e15 bytes (Parallel Connections %i): refused on the first answer, nothing planned',
	async (connections) => {
		const key = licensed(connections);
		sim().setVideoFile(key, { size });
		sim().faults.claimSize(1e15);
		const t0 = Date.now();
		const run = await download(key, connections);
		expectRefused(run, '1000000000000000');
		// One request: no segment or resume was asked for on the strength of that total.
		expect(storage()).toHaveLength(1);
		expect(Date.now() - t0).toBeLessThan(15_000);
	},
);

test('the example of the issue, bytes 0-…/99999999999999, with 16 connections: refused, one request', async () => {
	const key = licensed(3);
	sim().setVideoFile(key, { size });
	sim().faults.claimSize(99_999_999_999_999);
	const run = await download(key, 16);
	expectRefused(run, '99999999999999');
	expect(storage()).toHaveLength(1);
});

test('a Content-Length of 1e15 on a 200 (storage without ranges): refused, one request', async () => {
	const key = licensed(4);
	sim().setVideoFile(key, { size, rangeSupport: false });
	sim().faults.claimSize(1e15);
	const run = await download(key, 8);
	expectRefused(run, '1000000000000000');
	expect(storage()).toHaveLength(1);
});

test('continueOnFail: the refused item becomes an error item and the next one downloads', async () => {
	const bad = licensed(5);
	const good = licensed(6);
	sim().setVideoFile(bad, { size });
	sim().setVideoFile(good, { size });
	sim().faults.claimSize(1e15, 1);
	const run = keep(
		await runPartner(
			{
				operation: 'getDownloadUrl',
				videoKey: '={{ $json.key }}',
				download: true,
				options: { parallelConnections: 8 },
			},
			{ input: [{ key: bad }, { key: good }], continueOnFail: true },
		),
	);
	expect(run.items).toHaveLength(2);
	expect(run.items[0].json.error).toBe("GridBank's storage stated an impossible file size");
	expect(run.items[1].json.fileSize).toBe(size);
});

test('an Enterprise file_size beyond the ceiling is refused before storage is asked', async () => {
	const videoId = licensed(7);
	sim().faults.fileSizeValue(2 ** 50);
	const run = keep(
		await runEnterprise({ resource: 'video', operation: 'getDownload', videoId, download: true }),
	);
	expect(run.items).toEqual([]);
	expect(run.error?.message).toBe('GridBank announced an impossible file size');
	expect(run.error?.description).toContain(`${2 ** 50} bytes`);
	expect(run.error?.description).toContain('1 TiB');
	expect(storage()).toHaveLength(0);
});
