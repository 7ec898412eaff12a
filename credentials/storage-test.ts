// The storage credential's Test: a signed ListObjectsV2 of one object (or ListBuckets), and what
// each refusal means. n8n's tester matches a failed test by status only, so each message names the
// S3 error codes that status carries and what to change for each.
import type { ICredentialTestRequest } from 'n8n-workflow';

/** Marks the Test's request: `authenticate` replaces its URL with the bucket listing. */
export const STORAGE_TEST_HEADER = 'X-GridBank-Storage-Test';

const rule = (value: number, message: string) => ({
	type: 'responseCode' as const,
	properties: { value, message },
});

export const storageTestRules = [
	rule(
		403,
		'The store refused the key (HTTP 403). SignatureDoesNotMatch: the Secret Access Key is wrong. InvalidAccessKeyId: the store does not know this Access Key ID (or the Endpoint is another store). AccessDenied: the key is valid but may not list this bucket (or, with no Bucket to Test, the buckets): give it list and write permission on the bucket, or name the bucket in Bucket to Test.',
	),
	rule(
		404,
		'No such bucket (HTTP 404 NoSuchBucket): check Bucket to Test, and that the Endpoint and Region are those of the bucket.',
	),
	rule(
		400,
		'The store refused the request (HTTP 400): most often the Region is not the bucket\'s (AuthorizationHeaderMalformed), e.g. "auto" on Cloudflare R2.',
	),
	...[301, 307].map((status) =>
		rule(
			status,
			`The store redirected the test (HTTP ${status}): the bucket is in another region or behind another endpoint. Set the Endpoint and Region of the bucket's own region.`,
		),
	),
] as unknown as ICredentialTestRequest['rules'];
