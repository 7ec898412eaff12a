// Stopping an execution aborts an in-flight download quickly and leaves nothing stored.
import { DEMO_PARTNER_KEY } from '../../../../simulator';
import { runPartner } from '../../../harness/run-gridbank';
import { coreMajor } from '../../../harness/engine';
import { deleteBinaries, storedFiles } from '../../../harness/run-node';
import { useSimulator } from '../../../harness/simulator';
import { PROMPTLY_MS } from '../../../harness/time-bounds';

const sim = useSimulator();

test('cancel during a slow download (100 s long): the run ends at once and no partial file is left', async () => {
	const key = sim().partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
	sim().setVideoFile(key, { size: 50 * 1024 * 1024 });
	sim().faults.slowDownload(512 * 1024);
	let cancel: () => void = () => {};
	let cancelledAt = 0;
	const started = runPartner(
		{ operation: 'getDownloadUrl', videoKey: key, download: true },
		{ onStart: (execution) => (cancel = execution.cancel) },
	);
	// Wait until bytes are flowing, then stop the execution.
	for (let i = 0; i < 100 && !sim().log.some((e) => e.target === 'storage'); i++)
		await new Promise((r) => setTimeout(r, 50));
	await new Promise((r) => setTimeout(r, 700));
	cancelledAt = Date.now();
	cancel();
	const run = await started;
	const took = Date.now() - cancelledAt;
	sim().faults.slowDownload(0);

	expect(took).toBeLessThan(PROMPTLY_MS);
	expect(run.items).toEqual([]);
	expect(run.run.status).toBe('canceled');
	// Give the store's own clean-up of its temporary file a moment, then check.
	await new Promise((r) => setTimeout(r, 200));
	// n8n 1.x's filesystem store writes straight into its final file and leaves what arrived when
	// the stream fails: never in an item, and deleted with the execution's binary data.
	expect(storedFiles(run)).toHaveLength(coreMajor >= 2 ? 0 : 1);
	await deleteBinaries(run);
});

test('cancel during a retry wait (429, Retry-After: 60): the run ends at once, on every engine', async () => {
	// n8n 1.x's sleep ignores the abort signal: nodes/shared/transport/wait.ts races it against the signal.
	sim().faults.failNext({ status: 429, count: 1, retryAfter: '60', path: '/partner/v1/content' });
	let cancel: () => void = () => {};
	const started = runPartner(
		{ operation: 'listContent', returnAll: false, limit: 1 },
		{ onStart: (execution) => (cancel = execution.cancel) },
	);
	for (let i = 0; i < 100 && !sim().log.some((e) => e.status === 429); i++)
		await new Promise((r) => setTimeout(r, 50));
	expect(sim().log.some((e) => e.status === 429)).toBe(true);
	const cancelledAt = Date.now();
	cancel();
	const run = await started;
	expect(Date.now() - cancelledAt).toBeLessThan(PROMPTLY_MS);
	expect(run.run.status).toBe('canceled');
	expect(run.items).toEqual([]);
	// The request after the wait never went out.
	expect(
		sim().log.filter((e) => e.target === 'api' && e.path === '/partner/v1/content'),
	).toHaveLength(1);
});
