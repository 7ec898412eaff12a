// A signed URL's expiry judged from its lifetime (expires_at against the issuing response's own
// Date header), not from n8n's clock against GridBank's absolute time: with the clocks ten
// minutes apart either way, a parallel download asks for one URL, not one per segment. The
// simulator's clock is offset (faults.clockOffset); the node's clock is never faked.
import { createHash } from 'node:crypto';

import { DEMO_PARTNER_KEY, fileSha256, type Simulator } from '../../../../simulator';
import { runEnterprise, runPartner, type GridBankRun } from '../../../harness/run-gridbank';
import { cleanUpBinaries, readBinary, type NodeRun } from '../../../harness/run-node';
import { useSimulator } from '../../../harness/simulator';
import { planSegments } from '../../../../nodes/shared/download/segment-plan';
import { MiB } from '../../../../nodes/shared/transport/values';
import { openAllConnections } from '../../../harness/open-all-connections';

openAllConnections();

const sim = useSimulator();
const cleanUp = cleanUpBinaries();
/** The run, its binaries deleted after the test. */
const keep = <T extends NodeRun>(run: T): T => (cleanUp(run), run);
const MINUTE = 60_000;
const SIZE = 40 * MiB + 7;

const licensed = (s: Simulator, n: number) => s.partnerLicences(DEMO_PARTNER_KEY)[n].video_key;
const urlCalls = (run: GridBankRun) => run.calls.filter((c) => c.path.endsWith('/download'));

async function partnerDownload(n: number, connections: number) {
	const key = licensed(sim(), n);
	sim().setVideoFile(key, { size: SIZE });
	// Segments overlap in time, as they do over the internet.
	sim().faults.wanLink({ connectionBytesPerSecond: 60e6, rttMs: 5 });
	const run = keep(
		await runPartner({
			operation: 'getDownloadUrl',
			videoKey: key,
			download: true,
			options: { parallelConnections: connections },
		}),
	);
	return { key, run };
}

async function expectWhole(run: GridBankRun, key: string, size = SIZE) {
	expect(run.error).toBeUndefined();
	const bytes = await readBinary(run.items[0]);
	expect(bytes.length).toBe(size);
	expect(createHash('sha256').update(bytes).digest('hex')).toBe(fileSha256(key, size));
}

describe("n8n's clock ten minutes ahead of GridBank's (expires_at already past here)", () => {
	test.each([8, 4])(
		'Partner, %i connections: one URL for every segment, the file whole',
		async (connections) => {
			sim().faults.clockOffset(-10 * MINUTE);
			const { key, run } = await partnerDownload(connections === 8 ? 0 : 1, connections);
			await expectWhole(run, key);
			expect(urlCalls(run)).toHaveLength(1);
			expect(run.items[0].json.expires_at as number).toBeLessThan(Date.now() / 1000);
			// Every segment went to storage with that URL, and storage took it.
			const plan = planSegments(SIZE, connections)!;
			// (Plus any hand-over of a part a busy machine slowed: hand-over.ts.)
			const { handedOver } = run.items[0].json.transfer as { handedOver: number };
			expect(run.storage.map((e) => e.status)).toEqual(
				Array.from({ length: plan.count + handedOver }, () => 206),
			);
		},
	);

	test('Enterprise Get Download, 4 connections: one URL, the file whole', async () => {
		sim().faults.clockOffset(-10 * MINUTE);
		const account = sim().createEnterpriseAccount().key;
		const [id] = sim().addEnterpriseVideos([{}]);
		sim().setVideoFile(id, { size: SIZE });
		const run = keep(
			await runEnterprise(
				{
					resource: 'video',
					operation: 'getDownload',
					videoId: id,
					download: true,
					options: { parallelConnections: 4 },
				},
				{ apiKey: account },
			),
		);
		await expectWhole(run, id);
		expect(urlCalls(run)).toHaveLength(1);
		expect(run.storage.every((e) => e.status === 206)).toBe(true);
	});
});

test("n8n's clock ten minutes behind GridBank's: one URL, the file whole", async () => {
	sim().faults.clockOffset(10 * MINUTE);
	const { key, run } = await partnerDownload(2, 8);
	await expectWhole(run, key);
	expect(urlCalls(run)).toHaveLength(1);
	expect(run.storage.every((e) => e.status === 206)).toBe(true);
});

test("without a Date header, expires_at is read against n8n's clock: one fresh URL before storage, then storage decides (not one per segment)", async () => {
	sim().faults.clockOffset(-10 * MINUTE);
	sim().faults.omitDateHeader(true);
	const { key, run } = await partnerDownload(3, 8);
	await expectWhole(run, key);
	// Today's reading: the first URL looks expired and is replaced before storage is asked. The
	// fresh one looks expired too, so the clocks disagree: it serves every segment.
	expect(urlCalls(run)).toHaveLength(2);
	expect(run.storage.every((e) => e.status === 206)).toBe(true);
});
