// A copy's parameters and credential read and checked before any request: the bucket, the key
// (or the default built once the file name is known), If Exists, and the storage credential's
// endpoint; the scrubber that keeps the storage secret out of every text.
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { ItemContext } from '../item-context';
import { inputError } from '../transport/errors';
import { BUCKET_PATTERN, checkEndpoint } from '../transport/s3-address';
import { scrubText, secretsOf } from '../transport/scrub';
import { requireText } from '../validate';
import { STORAGE_CREDENTIAL, type StorageTarget } from './s3-call';

export type IfExists = 'skip' | 'overwrite' | 'fail';
const IF_EXISTS: IfExists[] = ['skip', 'overwrite', 'fail'];

/** A key S3 and every URL parser keep as given: no leading "/", no empty, "." or ".." segment. */
const BAD_KEY = /^\/|(^|\/)\.{1,2}(\/|$)|\/\/|\\/;

function checkedKey(item: ItemContext, value: string): string {
	if (Buffer.byteLength(value) > 1024 || BAD_KEY.test(value))
		throw inputError(
			item.node,
			'Key is not a usable object key',
			'A key is at most 1024 bytes, without a leading "/", "//", "\\" or "." / ".." segments, such as gridbank/gbv-3fK9xQ2m/master.mov.',
			item.itemIndex,
		);
	return value;
}

/** The default key: <prefix><video id>/<file name> (the file name from storage's answer). */
export const defaultKey = (prefix: string, videoId: string, fileName: string) =>
	`${prefix}${videoId.replace(/[\\/]+/g, '-')}/${fileName.replace(/[\\/]+/g, '-').replace(/^\.+$/, 'file')}`;

export interface CopySettings {
	target: StorageTarget;
	/** Set: the user's key; undefined: defaultKey once the file name is known. */
	key?: string;
	/** The default key's start: "gridbank/", or a trigger's Key Prefix. */
	prefix: string;
	ifExists: IfExists;
}

/** A trigger's Key Prefix (its items have no Key expression to map a video into). */
function readPrefix(item: ItemContext): string {
	const value = item.param('keyPrefix', 'gridbank/');
	if (value === '' || value === null || value === undefined) return '';
	const prefix = requireText(item, value, 'Key Prefix', 512);
	checkedKey(item, `${prefix}x`);
	return prefix;
}

export async function readCopySettings(item: ItemContext): Promise<CopySettings> {
	const bucket = requireText(item, item.param('bucket', ''), 'Bucket', 63);
	if (!BUCKET_PATTERN.test(bucket))
		throw inputError(
			item.node,
			`Bucket "${bucket}" is not a bucket name`,
			'A bucket name is 3-63 characters: lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit.',
			item.itemIndex,
		);
	const keyValue = item.param('key', '');
	const key =
		keyValue === '' || keyValue === null || keyValue === undefined
			? undefined
			: checkedKey(item, requireText(item, keyValue, 'Key', 1024));
	const ifExists = item.param('ifExists', 'skip') as IfExists;
	if (!IF_EXISTS.includes(ifExists))
		throw inputError(
			item.node,
			`If Exists must be one of ${IF_EXISTS.join(', ')}`,
			'Pick a value from the list.',
			item.itemIndex,
		);
	const credentials: ICredentialDataDecryptedObject = await item.ctx.getCredentials(
		STORAGE_CREDENTIAL,
		item.itemIndex,
	);
	const checked = checkEndpoint(credentials.endpoint);
	if ('reason' in checked)
		throw inputError(
			item.node,
			`The storage credential's Endpoint ${checked.reason}`,
			"Open the S3-Compatible Storage (GridBank) credential and enter the store's S3 address, e.g. https://s3.eu-central-1.amazonaws.com.",
			item.itemIndex,
		);
	const secret =
		typeof credentials.secretAccessKey === 'string' ? credentials.secretAccessKey.trim() : '';
	const secrets = secret ? secretsOf(secret) : undefined;
	const scrub = (text: string) => {
		const clean = item.client.scrub(text);
		return secrets ? scrubText(clean, secrets) : clean;
	};
	return {
		target: {
			endpoint: checked.url.toString(),
			addressing: credentials.addressing === 'virtualHost' ? 'virtualHost' : 'path',
			bucket,
			key: key ?? '',
			scrub,
		},
		key,
		prefix: readPrefix(item),
		ifExists,
	};
}
