// A copy never touches n8n's binary data: in "database" mode (queue mode's default, capped at
// 512 MiB), with a stand-in store that refuses every write, a file over the cap lands whole.
import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService, type BinaryData } from 'n8n-core';

import { DEMO_PARTNER_KEY, fileSha256 } from '../../../../simulator';
import { runPartner } from '../../../harness/run-gridbank';
import { initBinaryData } from '../../../harness/run-node';
import { useSimulator } from '../../../harness/simulator';
import { copyPartner, MIB, readBack, useS3 } from './copy-harness';

const sim = useSimulator();
const s3 = useS3();
const writes: string[] = [];

/** n8n's binary data store in "database" mode, as a stand-in that records and refuses any write. */
const refusing = {
	init: async () => {},
	store: async (_location: unknown, _data: unknown, metadata: BinaryData.PreWriteMetadata) => {
		writes.push(metadata.fileName ?? '(no name)');
		throw new Error('the copy must not write binary data');
	},
} as unknown as BinaryData.Manager;

beforeAll(async () => {
	const config = Container.get(BinaryDataConfig);
	config.mode = 'database';
	config.dbMaxFileSize = 1; // MiB: the file below is six times over the cap
	await initBinaryData();
	Container.get(BinaryDataService).setManager('database', refusing);
});

test("database mode, a file over its cap: copied whole, n8n's binary data never written", async () => {
	const videoKey = sim().partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
	const size = 6 * MIB + 1;
	sim().setVideoFile(videoKey, { size });
	const run = await copyPartner(s3(), {
		videoKey,
		key: 'modes/database.mov',
		ifExists: 'overwrite',
	});
	expect(run.error).toBeUndefined();
	expect(run.items[0].json).toMatchObject({ size, sha256: fileSha256(videoKey, size) });
	expect(await readBack(s3(), 'modes/database.mov')).toEqual({
		sha256: fileSha256(videoKey, size),
		size,
	});
	expect(writes).toEqual([]);
});

test('the stand-in is in force: Download File of the same video is refused by it', async () => {
	const videoKey = sim().partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
	sim().setVideoFile(videoKey, { size: 6 * MIB + 1 });
	const run = await runPartner({ operation: 'getDownloadUrl', videoKey, download: true });
	expect(run.error).toBeDefined();
	expect(writes.length).toBeGreaterThan(0);
});
