// The package's own SigV4 signer against AWS's published examples (Amazon S3 API reference,
// "Signature Calculations for the Authorization Header": GET Bucket Lifecycle and GET Bucket
// (List Objects), key AKIAIOSFODNN7EXAMPLE, 2013-05-24), and the S3 addresses it signs.
import { s3Url } from '../../../../nodes/shared/transport/s3-address';
import { sha256Hex, signRequest } from '../../../../nodes/shared/transport/sigv4';

const example = {
	accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
	secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
	region: 'us-east-1',
	now: new Date(Date.UTC(2013, 4, 24)),
	payloadHash: sha256Hex(''),
	headers: {},
	method: 'GET',
};

test.each([
	[
		'GET Bucket Lifecycle',
		'https://examplebucket.s3.amazonaws.com/?lifecycle',
		'fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543',
	],
	[
		'GET Bucket (List Objects)',
		'https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J',
		'34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7',
	],
])('AWS example %s', (_, url, signature) => {
	const signed = signRequest({ ...example, url: new URL(url) });
	expect(signed.authorization).toBe(
		`AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=${signature}`,
	);
	expect(signed['x-amz-date']).toBe('20130524T000000Z');
});

test('addresses: path-style and virtual-host, keys encoded once per segment, queries as S3 names them', () => {
	const path = { endpoint: 'https://s3.eu-central-1.amazonaws.com', addressing: 'path' as const };
	const host = { ...path, addressing: 'virtualHost' as const };
	expect(s3Url(path, 'my.bucket', 'a b/ü+(1).mov').toString()).toBe(
		'https://s3.eu-central-1.amazonaws.com/my.bucket/a%20b/%C3%BC%2B%281%29.mov',
	);
	expect(s3Url(host, 'masters', 'k.mov', { uploads: '' }).toString()).toBe(
		'https://masters.s3.eu-central-1.amazonaws.com/k.mov?uploads',
	);
	expect(s3Url(host, '').toString()).toBe('https://s3.eu-central-1.amazonaws.com/');
	expect(() => s3Url({ ...path, endpoint: 'ftp://x' }, 'b')).toThrow(/https/);
});
