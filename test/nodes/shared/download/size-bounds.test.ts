// Sizes from storage and from the API are bounded before they are used (issue 24, point 2): an
// absurd Content-Range total or Content-Length (beyond the 1 TiB ceiling) or Enterprise
// file_size is refused with a clear error before anything is planned, allocated or stored.
import { DEMO_PARTNER_KEY } from '../../../../simulator';
import { runEnterprise, runPartner } from '../../../harness/run-gridbank';
import { cleanUpBinaries, storedFiles, type NodeRun } from '../../../harness/run-node';
import { storeKeepsPartialFiles } from '../../../harness/engine';
import { storageCalls, useSimulator } from '../../../harness/simulator';

const sim = useSimulator();
const keep = cleanUpBinaries();

const licensed = (n: number) => sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;
const storage = () => storageCalls(sim());
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

test.each([
	['a Content-Range total of 1e15', 1, 1e15, true],
	['a Content-Range total of 1e15', 8, 1e15, true],
	['bytes 0-…/99999999999999 (the example of the issue)', 16, 99_999_999_999_999, true],
	['a Content-Length of 1e15 on a 200 (no ranges)', 8, 1e15, false],
])(
	'%s, Parallel Connections %i: refused on the first answer, nothing planned',
	async (_, connections, claimed, rangeSupport) => {
		const key = licensed(connections);
		sim().setVideoFile(key, { size, rangeSupport });
		sim().faults.claimSize(claimed);
		const run = await download(key, connections);
		expectRefused(run, String(claimed));
		// One request: no segment or resume was asked for on the strength of that size.
		expect(storage()).toHaveLength(1);
	},
);

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

test('a total beyond the Enterprise file_size (within the ceiling) is refused before any segment is asked for', async () => {
	const videoId = licensed(8);
	sim().setVideoFile(videoId, { size: 40 * 1024 * 1024 });
	sim().faults.misstateFileSize(-1_000_000);
	const run = keep(
		await runEnterprise({
			resource: 'video',
			operation: 'getDownload',
			videoId,
			download: true,
			options: { parallelConnections: 8 },
		}),
	);
	expect(run.items).toEqual([]);
	expect(run.error?.message).toBe(
		"GridBank's storage holds a file of another size than GridBank announced",
	);
	expect(storage()).toHaveLength(1);
});
