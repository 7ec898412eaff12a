// S3's answers as the copy's errors: the XML error's code said in words a user can act on, the
// storage secret scrubbed from anything the store sent.
import type { NodeApiError } from 'n8n-workflow';

import { apiErrorKeepingMessage } from '../transport/kept-message';
import type { ItemRef } from '../validate';

const tag = (xml: string, name: string) =>
	new RegExp(`<${name}>([^<]{0,300})</${name}>`).exec(xml)?.[1]?.trim();

export const xmlCode = (xml: string) => tag(xml, 'Code');

const CODES: Record<string, string> = {
	SignatureDoesNotMatch:
		'The storage refused the signature: the Secret Access Key of the S3-Compatible Storage (GridBank) credential is wrong',
	InvalidAccessKeyId:
		'The storage does not know the Access Key ID of the S3-Compatible Storage (GridBank) credential (or the Endpoint is another store)',
	AccessDenied: 'The storage key may not write to this bucket: give it write permission on it',
	NoSuchBucket: 'The bucket does not exist at this endpoint',
	AuthorizationHeaderMalformed:
		'The credential\'s Region is not the bucket\'s region ("auto" on Cloudflare R2)',
	PermanentRedirect:
		"The bucket is in another region: set the Endpoint and Region of the bucket's own",
	BadDigest: 'The storage received a part whose checksum did not match what was sent',
	EntityTooSmall: 'The storage refused a part smaller than 5 MiB',
	NoSuchUpload: 'The storage no longer knows the multipart upload (it was aborted or completed)',
	SlowDown: 'The storage kept asking to slow down',
	InternalError: 'The storage kept failing with an internal error',
};

export interface S3Failure {
	op: string;
	status?: number;
	/** The answer's body (XML), or the network failure's reason. */
	text: string;
	bucket: string;
	key: string;
	/** Removes the storage secret (and the GridBank key) from server text. */
	scrub: (text: string) => string;
}

export function s3Error(item: ItemRef, failure: S3Failure): NodeApiError {
	const code = xmlCode(failure.text);
	const said = failure.scrub(tag(failure.text, 'Message') ?? failure.text.slice(0, 200));
	const known = code ? CODES[code] : undefined;
	const redirect = failure.status === 301 || failure.status === 307;
	const message =
		known ??
		(redirect
			? CODES.PermanentRedirect
			: failure.status
				? `The storage refused the copy (HTTP ${failure.status}${code ? ` ${failure.scrub(code)}` : ''})`
				: `The storage could not be reached (${said})`);
	const where = `bucket "${failure.bucket}", key "${failure.key}"`;
	const description = `${failure.op} for ${where}${code ? ` answered ${failure.scrub(code)}` : ''}${said && failure.status ? `: ${said}` : ''}. Nothing was left in the bucket: any multipart upload was aborted.`;
	// A reset part upload says "could not be reached (read ECONNRESET)" and names its bucket.
	return apiErrorKeepingMessage(
		item.node,
		{ message, ...(failure.status ? { status: failure.status } : {}) },
		{
			message,
			description,
			httpCode: failure.status ? String(failure.status) : undefined,
			itemIndex: item.itemIndex,
		},
	);
}
