// One Partner Download File run through the real engine, its stored files deleted after each
// test: the call the download tests that vary only connections and retries share; and the
// SHA-256 of what n8n stored.
import { createHash } from 'node:crypto';

import { runPartner } from '../../../harness/run-gridbank';
import { binaryStream, cleanUpBinaries, type NodeRun } from '../../../harness/run-node';

/** The SHA-256 and length of the first item's stored binary, read back from n8n's store. */
export async function sha256Of(run: NodeRun) {
	const hash = createHash('sha256');
	let bytes = 0;
	for await (const chunk of await binaryStream(run.items[0])) {
		hash.update(chunk as Buffer);
		bytes += (chunk as Buffer).length;
	}
	return { sha256: hash.digest('hex'), bytes };
}

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
