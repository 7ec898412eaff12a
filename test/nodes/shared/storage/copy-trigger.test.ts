// Both triggers with Copy to Storage (instead of Download File): each new video's file lands in
// the bucket under Key Prefix + <id>/<file name>, byte-exact, and its item says what landed.
import { fileSha256 } from '../../../../simulator';
import { pollEnterpriseTrigger, pollTrigger } from '../../../harness/run-gridbank';
import { useSimulator } from '../../../harness/simulator';
import { addMatching, freshWord } from '../../GridBankEnterpriseTrigger/helpers';
import { BUCKET, MIB, openUploads, readBack, storageCredential, useS3 } from './copy-harness';

const sim = useSimulator();
const s3 = useS3();
const copying = { copyToStorage: true, bucket: BUCKET, keyPrefix: 'new/', ifExists: 'overwrite' };

test('Partner Trigger: each newly licensed master is copied; no binary on the item', async () => {
	const { key: apiKey } = sim().createPartnerAccount({ licences: 2 });
	const trigger = pollTrigger(copying, { apiKey, credentials: storageCredential(s3()) });
	expect((await trigger.activate()).error).toBeUndefined();
	const purchasedAt = Math.floor(Date.now() / 1000) - 3600;
	const [video] = sim().addPartnerLicences(apiKey, 1, { purchasedAt });
	const size = 11 * MIB + 3;
	sim().setVideoFile(video, { size, fileName: 'dawn.mov' });
	const poll = await trigger.tick();
	expect(poll.error).toBeUndefined();
	expect(poll.items).toHaveLength(1);
	const item = poll.items![0];
	expect(item.binary).toBeUndefined();
	expect(item.json).toMatchObject({
		video_key: video,
		bucket: BUCKET,
		key: `new/${video}/dawn.mov`,
		size,
		sha256: fileSha256(video, size),
		skipped: false,
	});
	expect(await readBack(s3(), `new/${video}/dawn.mov`)).toEqual({
		sha256: fileSha256(video, size),
		size,
	});
	expect(await openUploads(s3(), 0)).toEqual([]);
});

test('Enterprise Trigger: new matching footage is copied; a bucket the key may not write fails the poll, nothing left', async () => {
	const { key: apiKey } = sim().createEnterpriseAccount({ tier: 'enterprise' });
	const word = freshWord();
	addMatching(sim(), word, 2);
	const trigger = pollEnterpriseTrigger(
		{ query: word, options: { maxRetries: 1 }, ...copying },
		{ apiKey, credentials: storageCredential(s3()) },
	);
	expect((await trigger.activate()).error).toBeUndefined();
	const [id] = addMatching(sim(), word, 1);
	sim().setVideoFile(id, { size: 2 * MIB + 1 });
	s3().faults.add({ op: 'PutObject', status: 403, code: 'AccessDenied' });
	const refused = await trigger.tick();
	expect(refused.error?.message).toMatch(/may not write/);
	expect(await openUploads(s3(), 0)).toEqual([]);

	const poll = await trigger.tick();
	expect(poll.error).toBeUndefined();
	expect(poll.items!.map((item) => item.json)).toEqual([
		expect.objectContaining({ id, size: 2 * MIB + 1, sha256: fileSha256(id, 2 * MIB + 1) }),
	]);
	const landed = String(poll.items![0].json.key);
	expect(landed.startsWith(`new/${id.replace(/\//g, '-')}/`)).toBe(true);
	expect(await readBack(s3(), landed)).toMatchObject({ sha256: fileSha256(id, 2 * MIB + 1) });
});
