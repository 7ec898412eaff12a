// The user's own S3-compatible bucket (AWS S3, Cloudflare R2, Wasabi, Backblaze B2, MinIO...),
// the target of the Copy to Storage operations. Requests are signed with AWS Signature Version 4
// (nodes/shared/transport/sigv4.ts) in `authenticate`, as n8n's own AWS credential does, so the
// nodes send every storage request through httpRequestWithAuthentication.
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { storageTestRules, STORAGE_TEST_HEADER } from './storage-test';
import { authenticateS3 } from './storage-auth';
import { ICON } from './common';

export class GridBankS3StorageApi implements ICredentialType {
	name = 'gridBankS3StorageApi';

	displayName = 'S3-Compatible Storage (GridBank)';

	documentationUrl = 'https://github.com/gridbank/n8n-nodes-gridbank#copy-to-storage';

	icon = ICON;

	properties: INodeProperties[] = [
		{
			displayName: 'Endpoint',
			name: 'endpoint',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://s3.eu-central-1.amazonaws.com',
			description:
				"The store's S3 API address, without the bucket: AWS https://s3.<region>.amazonaws.com, Cloudflare R2 https://<account-id>.r2.cloudflarestorage.com, Wasabi https://s3.<region>.wasabisys.com, Backblaze B2 https://s3.<region>.backblazeb2.com, MinIO your server's address",
		},
		{
			displayName: 'Region',
			name: 'region',
			type: 'string',
			default: 'us-east-1',
			required: true,
			description:
				'The region the requests are signed for: the bucket\'s region on AWS, Wasabi and B2; "auto" on Cloudflare R2; us-east-1 on MinIO unless it was set otherwise',
		},
		{
			displayName: 'Access Key ID',
			name: 'accessKeyId',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Secret Access Key',
			name: 'secretAccessKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Addressing',
			name: 'addressing',
			type: 'options',
			options: [
				{
					name: 'Path-Style (Endpoint/Bucket/Key)',
					value: 'path',
					description: 'Works with every store; what MinIO and most local servers need',
				},
				{
					name: 'Virtual-Host (Bucket.Endpoint/Key)',
					value: 'virtualHost',
					description: "AWS S3's preferred form; the bucket becomes part of the host name",
				},
			],
			default: 'path',
		},
		{
			displayName: 'Bucket to Test',
			name: 'testBucket',
			type: 'string',
			default: '',
			description:
				'Optional. The Test lists at most one object of this bucket, so it also proves the bucket exists and the key may use it. Left empty, the Test lists the buckets (keys limited to one bucket may be refused that).',
		},
	];

	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => authenticateS3(credentials, requestOptions);

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ $credentials.endpoint }}',
			url: '/',
			headers: { [STORAGE_TEST_HEADER]: '1' },
			disableFollowRedirect: true,
		},
		rules: storageTestRules,
	};
}
