// One Partner Download File run through the real engine, its stored files deleted after each
// test: the call the download tests that vary only connections and retries share.
import { runPartner } from '../../../harness/run-gridbank';
import { cleanUpBinaries } from '../../../harness/run-node';

/** Call at a test file's top level (it registers an afterEach). */
export function partnerDownloads() {
	const keep = cleanUpBinaries();
	return async (videoKey: string, parallelConnections: number, maxRetries = 3) =>
		keep(
			await runPartner({
				operation: 'getDownloadUrl',
				videoKey,
				download: true,
				options: { parallelConnections, maxRetries },
			}),
		);
}
