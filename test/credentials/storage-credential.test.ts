// The S3-Compatible Storage (GridBank) credential's Test, as n8n's tester runs it, against the
// local S3 server (which verifies SigV4): it passes with the right key, and each wrong part gets
// the message that names it.
import { credentialTest } from '../harness/credential-test';
import { routingErrorKeepsResponse } from '../harness/engine';
import { storageCredential, useS3 } from '../nodes/shared/storage/copy-harness';

const s3 = useS3();
const data = (overrides: Record<string, unknown> = {}) =>
	storageCredential(s3(), overrides).gridBankS3StorageApi;
const test403 = routingErrorKeepsResponse ? /SignatureDoesNotMatch/ : /Forbidden|403/;

test('passes with the right key, listing the buckets or one object of the Bucket to Test', async () => {
	expect(await credentialTest('gridBankS3StorageApi', data())).toMatchObject({ status: 'OK' });
	expect(
		await credentialTest('gridBankS3StorageApi', data({ testBucket: 'gridbank-masters' })),
	).toMatchObject({ status: 'OK' });
	expect(s3().requests.map((r) => r.status)).toEqual([200, 200]);
	// Signed: the secret never travels, only its signature.
	for (const r of s3().requests) {
		expect(r.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=S3RVER\//);
		expect(JSON.stringify(r)).not.toContain(`${s3().secretAccessKey}x`);
	}
});

test('a wrong secret, an unknown key id, a missing bucket and an unreachable endpoint each fail, saying which', async () => {
	const wrongSecret = await credentialTest(
		'gridBankS3StorageApi',
		data({ secretAccessKey: 'wrong-secret-123' }),
	);
	expect(wrongSecret).toMatchObject({ status: 'Error', message: expect.stringMatching(test403) });
	const unknownKey = await credentialTest('gridBankS3StorageApi', data({ accessKeyId: 'NOBODY' }));
	expect(unknownKey).toMatchObject({ status: 'Error' });
	const noBucket = await credentialTest(
		'gridBankS3StorageApi',
		data({ testBucket: 'no-such-bucket' }),
	);
	expect(noBucket).toMatchObject({ status: 'Error' });
	if (routingErrorKeepsResponse) expect(noBucket.message).toMatch(/NoSuchBucket/);
	const unreachable = await credentialTest(
		'gridBankS3StorageApi',
		data({ endpoint: 'http://127.0.0.1:9' }),
	);
	expect(unreachable).toMatchObject({
		status: 'Error',
		message: expect.stringMatching(/ECONNREFUSED|refused/i),
	});
});
