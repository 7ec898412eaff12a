// The storage credential's `authenticate`: signs a request with AWS Signature Version 4. The
// payload hash is the caller's x-amz-content-sha256 when set (the copy sends UNSIGNED-PAYLOAD
// with a Content-MD5 the store checks), else the body's own SHA-256.
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { s3Url, type StorageEndpoint } from '../nodes/shared/transport/s3-address';
import { sha256Hex, signRequest, UNSIGNED_PAYLOAD } from '../nodes/shared/transport/sigv4';
import { STORAGE_TEST_HEADER } from './storage-test';

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export function storageEndpoint(credentials: ICredentialDataDecryptedObject): StorageEndpoint {
	return {
		endpoint: text(credentials.endpoint),
		addressing: credentials.addressing === 'virtualHost' ? 'virtualHost' : 'path',
	};
}

/** The Test's request: one object of the Bucket to Test, or the bucket list when there is none. */
function testUrl(credentials: ICredentialDataDecryptedObject): URL {
	const bucket = text(credentials.testBucket);
	return bucket
		? s3Url(storageEndpoint(credentials), bucket, undefined, { 'list-type': '2', 'max-keys': '1' })
		: s3Url(storageEndpoint(credentials), '');
}

function requestUrl(options: IHttpRequestOptions): URL {
	const base = options.baseURL ? options.baseURL.replace(/\/+$/, '') : '';
	const url = new URL(`${base}${options.url}`);
	for (const [name, value] of Object.entries(options.qs ?? {}))
		if (value !== undefined && value !== null) url.searchParams.append(name, String(value));
	return url;
}

/** The endpoint's own host, or a bucket sub-domain of it (virtual-host addressing), same scheme. */
function onEndpoint(credentials: ICredentialDataDecryptedObject, url: URL): boolean {
	const base = s3Url(storageEndpoint(credentials), '');
	return (
		url.protocol === base.protocol && (url.host === base.host || url.host.endsWith(`.${base.host}`))
	);
}

export function authenticateS3(
	credentials: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
): IHttpRequestOptions {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(options.headers ?? {}))
		if (value !== undefined && value !== null) headers[name.toLowerCase()] = String(value);
	const isTest = STORAGE_TEST_HEADER.toLowerCase() in headers;
	delete headers[STORAGE_TEST_HEADER.toLowerCase()];
	delete headers.host;
	const url = isTest ? testUrl(credentials) : requestUrl(options);
	if (!onEndpoint(credentials, url))
		throw new Error(
			`The storage credential signs requests to its own Endpoint only, not ${url.host}`,
		);
	const body = options.body;
	const payloadHash =
		headers['x-amz-content-sha256'] ??
		(body === undefined || body === null || body === ''
			? sha256Hex('')
			: Buffer.isBuffer(body) || typeof body === 'string'
				? sha256Hex(body)
				: UNSIGNED_PAYLOAD);
	const signed = signRequest({
		method: options.method ?? 'GET',
		url,
		headers,
		payloadHash,
		accessKeyId: text(credentials.accessKeyId),
		secretAccessKey: text(credentials.secretAccessKey),
		region: text(credentials.region) || 'us-east-1',
	});
	const sent: IHttpRequestOptions = {
		...options,
		url: url.toString(),
		headers: { ...headers, ...signed },
	};
	// The URL holds them now, signed: n8n must not add them again.
	delete sent.baseURL;
	delete sent.qs;
	return sent;
}
