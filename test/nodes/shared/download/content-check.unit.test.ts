// Which content check a storage answer offers (content-check.ts), and CRC32C against its
// published check value: pure, no engine.
import { createHash } from 'node:crypto';

import { contentCheckOf } from '../../../../nodes/shared/download/content-check';
import { Crc32c } from '../../../../nodes/shared/download/crc32c';

const md5 = createHash('md5').update('x').digest();
const sha = createHash('sha256').update('x').digest();
const ETAG = `"${md5.toString('hex')}"`;

test('CRC32C: the check value of "123456789" (RFC 3720), the same in any split', () => {
	expect(new Crc32c().update(Buffer.from('123456789')).digest().toString('hex')).toBe('e3069283');
	const split = new Crc32c().update(Buffer.from('12')).update(Buffer.from('3456789'));
	expect(split.digest().toString('hex')).toBe('e3069283');
});

test('the cheapest check first: SHA-256, then an md5, then the ETag, then crc32c', () => {
	const goog = `crc32c=AAAAAA==, md5=${md5.toString('base64')}`;
	expect(
		contentCheckOf({ 'x-amz-checksum-sha256': sha.toString('base64'), 'x-goog-hash': goog }),
	).toEqual({
		source: 'x-amz-checksum-sha256',
		algorithm: 'sha256',
		expected: sha.toString('hex'),
	});
	expect(contentCheckOf({ 'x-goog-hash': goog, etag: ETAG })?.source).toBe('x-goog-hash md5');
	expect(contentCheckOf({ etag: ETAG, 'x-goog-hash': 'crc32c=AAAAAA==' })?.source).toBe('ETag md5');
	expect(contentCheckOf({ 'x-goog-hash': ['crc32c=AAAAAA=='] })).toEqual({
		source: 'x-goog-hash crc32c',
		algorithm: 'crc32c',
		expected: '00000000',
	});
});

test('what is not a hash of the whole object is not checked', () => {
	const none = (headers: Record<string, string>) => expect(contentCheckOf(headers)).toBeUndefined();
	none({ etag: `"${md5.toString('hex')}-2"` }); // multipart upload
	none({ etag: `W/${ETAG}` }); // weak
	none({ etag: ETAG, 'x-amz-server-side-encryption': 'aws:kms' }); // SSE-KMS: not the MD5
	none({ etag: ETAG, 'x-amz-server-side-encryption-customer-algorithm': 'AES256' }); // SSE-C
	none({ 'x-amz-checksum-sha256': `${sha.toString('base64')}-3` }); // composite
	none({ 'x-amz-checksum-sha256': sha.toString('base64'), 'x-amz-checksum-type': 'COMPOSITE' });
	none({ 'x-amz-checksum-sha256': md5.toString('base64') }); // wrong length
	none({ 'x-goog-hash': 'md5=not*base64' });
	// SSE-S3 (AES256) keeps the MD5 ETag.
	expect(contentCheckOf({ etag: ETAG, 'x-amz-server-side-encryption': 'AES256' })?.source).toBe(
		'ETag md5',
	);
});
