// A silent stall (storage sends some bytes, then nothing, the connection held open) is cut by
// the minimum-rate watch (16 KiB/s over a 30 s window, checked by a timer), well before the
// 60 s idle timeout (issue 24, point 5). Real limits: each test waits about one window. With
// parallel connections a free connection takes the silent part over instead (hand-over.ts).
import { DEMO_PARTNER_KEY, fileSha256 } from '../../../../simulator';
import { runPartner } from '../../../harness/run-gridbank';
import { cleanUpBinaries } from '../../../harness/run-node';
import { storageCalls, useSimulator } from '../../../harness/simulator';
import { LIMITS } from '../../../../nodes/shared/transport/deadlines';
import { MiB } from '../../../../nodes/shared/transport/values';

const sim = useSimulator();
const keep = cleanUpBinaries();
const licensed = (n: number) => sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;
const storage = () => storageCalls(sim());

jest.setTimeout(120_000);

test.each([[1, 3 * MiB]])(
	'Parallel Connections %i: 1 MB, then silence: cut by the rate watch after about one window, not at 60 s',
	async (parallelConnections, size) => {
		expect(LIMITS.storageMinBytesPerSecond).toBe(16 * 1024);
		expect(LIMITS.storageRateWindowMs).toBe(30_000);
		const key = licensed(parallelConnections);
		sim().setVideoFile(key, { size });
		// The first answer (byte 0 on) stalls for two minutes after 1 MB.
		sim().faults.stallAfter(1_000_000, 120_000, 1);
		const t0 = Date.now();
		const run = keep(
			await runPartner({
				operation: 'getDownloadUrl',
				videoKey: key,
				download: true,
				options: { parallelConnections, maxRetries: 0 },
			}),
		);
		const elapsed = Date.now() - t0;
		expect(run.items).toEqual([]);
		expect(run.error?.message).toBe('The download was cut off before the whole file arrived');
		expect(run.error?.description).toMatch(/below the minimum of 16 KiB\/s/);
		// Not before one window after the last byte; the message above is the rate watch's, not
		// the 60 s idle timeout's (a loaded machine may run late, never early).
		expect(elapsed).toBeGreaterThan(25_000);
		expect(storage()[0].headers.range).toBe('bytes=0-');
	},
);

test('Parallel Connections 4: 1 MB, then silence: the silent part is handed to a free connection, not cut', async () => {
	const key = licensed(4);
	const size = 40 * MiB;
	sim().setVideoFile(key, { size });
	sim().faults.stallAfter(1_000_000, 120_000, 1);
	const run = keep(
		await runPartner({
			operation: 'getDownloadUrl',
			videoKey: key,
			download: true,
			options: { parallelConnections: 4, maxRetries: 0 },
		}),
	);
	expect(run.error).toBeUndefined();
	expect(run.items[0].json).toMatchObject({ fileSize: size, sha256: fileSha256(key, size) });
	const transfer = run.items[0].json.transfer as { handedOver: number; resumes: number };
	expect(transfer.handedOver).toBeGreaterThanOrEqual(1);
	// Handed over, not cut by the rate watch (that would be a resume, and Max Retries is 0).
	expect(transfer.resumes).toBe(0);
	expect(storage()[0].headers.range).toBe('bytes=0-');
});
