// Secrets on a copy: the GridBank key never goes to the bucket, the storage signature never goes
// to GridBank, and the storage secret is in no output or error, even when the store echoes it.
import { DEMO_PARTNER_KEY } from '../../../../simulator';
import { useSimulator } from '../../../harness/simulator';
import { copyPartner, MIB, openUploads, useS3 } from './copy-harness';

const sim = useSimulator();
const s3 = useS3();
const licensed = (i = 0) => sim().partnerLicences(DEMO_PARTNER_KEY)[i].video_key;

test('the GridBank key never reaches the bucket, the storage signature never reaches GridBank', async () => {
	const key = licensed(3);
	sim().setVideoFile(key, { size: 6 * MIB });
	const run = await copyPartner(s3(), { videoKey: key, key: 'secrets/one.mov' });
	expect(run.error).toBeUndefined();
	const secret = DEMO_PARTNER_KEY.split('.')[1];
	expect(s3().requests.length).toBeGreaterThan(2);
	for (const r of s3().requests) {
		expect(JSON.stringify(r)).not.toContain(secret);
		expect(r.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=S3RVER\//);
	}
	const signatures = s3().requests.map((r) => /Signature=(\w+)/.exec(r.headers.authorization)![1]);
	for (const entry of [...run.calls, ...run.storage]) {
		const text = JSON.stringify(entry);
		// GridBank's own signed URLs are SigV4 too: none of them may carry the storage's key id.
		expect(text).not.toContain('S3RVER');
		expect(entry.headers.authorization ?? 'Bearer (none)').toMatch(/^Bearer /);
		for (const signature of signatures) expect(text).not.toContain(signature);
	}
});

test('a wrong secret: the item names the Secret Access Key and shows no secret; nothing left behind', async () => {
	const key = licensed(4);
	sim().setVideoFile(key, { size: 6 * MIB });
	const storageSecret = 'a-wrong-storage-secret-0123456789';
	const run = await copyPartner(
		s3(),
		{ videoKey: key, key: 'secrets/two.mov', ifExists: 'overwrite' },
		{ continueOnFail: true, credential: { secretAccessKey: storageSecret } },
	);
	const json = run.items[0].json;
	expect(json.error).toMatch(/Secret Access Key .* is wrong/);
	expect(JSON.stringify(run.items)).not.toContain(storageSecret);
	expect(JSON.stringify(run.items)).not.toContain(storageSecret.slice(0, 12));
	expect(await openUploads(s3())).toEqual([]);
});
