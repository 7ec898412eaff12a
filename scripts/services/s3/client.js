'use strict';
// A minimal signed S3 client for the e2e suites and the demo: list a bucket, hash an object and
// delete one through the server's S3 API (what a user of the bucket sees), not its files on disk.
const crypto = require('node:crypto');
const { signature, sha256Hex } = require('./sigv4');

const encodeKey = (key) => key.split('/').map(encodeURIComponent).join('/');

/** A SigV4-signed request without a body on the local server (`s3` as startS3Server returns it). */
async function signedRequest(s3, method, pathname, query = '') {
	const url = new URL(`${s3.endpoint}${pathname}${query ? `?${query}` : ''}`);
	const amzDate = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
	const scope = `${amzDate.slice(0, 8)}/${s3.region}/s3/aws4_request`;
	const payloadHash = sha256Hex('');
	const headers = { host: url.host, 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate };
	const signedHeaders = Object.keys(headers).sort();
	const sig = signature({
		method,
		rawPath: url.pathname,
		rawQuery: url.search.slice(1),
		headers,
		signedHeaders,
		payloadHash,
		amzDate,
		scope,
		secretAccessKey: s3.secretAccessKey,
	}).signature;
	const { host, ...sent } = headers; // fetch sends the same Host
	void host;
	const res = await fetch(url, {
		method,
		headers: {
			...sent,
			authorization: `AWS4-HMAC-SHA256 Credential=${s3.accessKeyId}/${scope}, SignedHeaders=${signedHeaders.join(';')}, Signature=${sig}`,
		},
	});
	if (!res.ok) throw new Error(`S3 ${method} ${url.pathname}: ${res.status} ${await res.text()}`);
	return res;
}

const signedGet = (s3, pathname, query = '') => signedRequest(s3, 'GET', pathname, query);

const unescapeXml = (s) =>
	s.replace(
		/&(lt|gt|quot|apos|amp);/g,
		(_, e) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e],
	);

/** Every object in `bucket` (under `prefix`): [{ key, size }], in S3's key order. */
async function listObjects(s3, bucket, prefix = '') {
	const out = [];
	let token;
	do {
		const q = new URLSearchParams({ 'list-type': '2', prefix });
		if (token) q.set('continuation-token', token);
		const xml = await (await signedGet(s3, `/${bucket}`, q.toString())).text();
		for (const [, body] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g))
			out.push({
				key: unescapeXml(/<Key>([\s\S]*?)<\/Key>/.exec(body)[1]),
				size: Number(/<Size>(\d+)<\/Size>/.exec(body)[1]),
			});
		token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
			? unescapeXml(/<NextContinuationToken>([\s\S]*?)<\/NextContinuationToken>/.exec(xml)[1])
			: undefined;
	} while (token);
	return out;
}

/** SHA-256 (hex) and byte count of an object, streamed. */
async function objectSha256(s3, bucket, key) {
	const res = await signedGet(s3, `/${bucket}/${encodeKey(key)}`);
	const hash = crypto.createHash('sha256');
	let size = 0;
	for await (const chunk of res.body) (hash.update(chunk), (size += chunk.length));
	return { sha256: hash.digest('hex'), size };
}

/** Deletes an object (S3 answers 204 whether or not it existed). */
async function deleteObject(s3, bucket, key) {
	await signedRequest(s3, 'DELETE', `/${bucket}/${encodeKey(key)}`);
}

module.exports = { deleteObject, listObjects, objectSha256 };
