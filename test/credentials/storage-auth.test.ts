// The storage credential signs only requests to its own Endpoint (or a bucket sub-domain of it):
// a signature made with the user's secret never goes to another host, whatever URL a caller gives.
import { authenticateS3 } from '../../credentials/storage-auth';

const credentials = {
	endpoint: 'https://s3.eu-central-1.example.com',
	region: 'eu-central-1',
	accessKeyId: 'AKIDEXAMPLE',
	secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
	addressing: 'path',
};

test.each([
	'https://s3.eu-central-1.example.com/bucket/key.mov',
	'https://masters.s3.eu-central-1.example.com/key.mov',
])('%s is signed', (url) => {
	const sent = authenticateS3(credentials, { method: 'GET', url });
	expect(String((sent.headers as Record<string, string>).authorization)).toMatch(
		/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\//,
	);
});

test.each([
	'https://api2.gridbank.io/partner/v1/content',
	'https://s3.eu-central-1.example.com.evil.test/bucket/key',
	'http://s3.eu-central-1.example.com/bucket/key',
])('%s is refused before anything is signed', (url) => {
	expect(() => authenticateS3(credentials, { method: 'GET', url })).toThrow(
		/signs requests to its own Endpoint only/,
	);
});
