// A storage answer the download lets go of unread (another version of the file, a byte range
// ignored) closes its connection at once. n8n-core 2.41's HTTP client hands a streamed body over
// wrapped in its own stream, and destroying that wrapper before anything was read never reached
// the response: its socket stayed open until n8n's 60 s idle timeout (and kept Jest's worker
// from exiting after `npm test`).
import { Socket } from 'node:net';

import { DEMO_PARTNER_KEY, fileSha256, versionedId } from '../../../../simulator';
import { runPartner } from '../../../harness/run-gridbank';
import { binarySha256, cleanUpBinaries } from '../../../harness/run-node';
import { useSimulator } from '../../../harness/simulator';
import { MiB } from '../../../../nodes/shared/download/segment-plan';

const sim = useSimulator();
const keep = cleanUpBinaries();

/** Sockets of this process still connected to the simulator's storage (n8n's HTTP client holds them). */
function socketsToStorage(): number {
	const port = Number(new URL(sim().storageUrl).port);
	// Node's list of live handles: the one view of the sockets inside n8n's HTTP client.
	const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
	return handles.filter((h) => h instanceof Socket && !h.destroyed && h.remotePort === port).length;
}

/** Waits up to 15 s (a keep-alive socket closes within the simulator's 5 s) for none to be left. */
async function socketsLeftAfterWaiting(): Promise<number> {
	const until = Date.now() + 15_000;
	while (socketsToStorage() > 0 && Date.now() < until)
		await new Promise((resolve) => setTimeout(resolve, 200));
	return socketsToStorage();
}

const download = async (videoKey: string, parallelConnections: number) =>
	keep(
		await runPartner({
			operation: 'getDownloadUrl',
			videoKey,
			download: true,
			options: { parallelConnections, maxRetries: 3 },
		}),
	);

test('a resume answered with the new version whole (200) is let go and its connection closed', async () => {
	const key = sim().partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
	const size = 3 * MiB + 11;
	sim().setVideoFile(key, { size });
	sim().faults.cutDownloadAfter(1_000_000, 1);
	sim().faults.replaceObject({ atRequests: [2] });
	const run = await download(key, 1);
	expect(run.error).toBeUndefined();
	expect(await binarySha256(run.items[0])).toBe(fileSha256(versionedId(key, 1), size));
	expect(await socketsLeftAfterWaiting()).toBe(0);
}, 90_000);

test('segments answered by another version are let go and their connections closed', async () => {
	const key = sim().partnerLicences(DEMO_PARTNER_KEY)[1].video_key;
	const size = 40 * MiB + 7;
	sim().setVideoFile(key, { size });
	sim().faults.replaceObject({ atRequests: [3], ifRange: 'ignore' });
	const run = await download(key, 4);
	expect(run.error).toBeUndefined();
	expect(await binarySha256(run.items[0])).toBe(fileSha256(versionedId(key, 1), size));
	expect(await socketsLeftAfterWaiting()).toBe(0);
}, 90_000);
