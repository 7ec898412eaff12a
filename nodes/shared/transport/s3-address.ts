// Where an S3 request goes: the storage credential's endpoint, path-style or virtual-host
// addressing, and the object key encoded as S3 signs it. Shared by the storage credential (its
// Test) and the copy (nodes/shared/storage/).
import { uriEncode } from './sigv4';

export interface StorageEndpoint {
	endpoint: string;
	addressing: 'path' | 'virtualHost';
}

/** http(s) only, a host, no user name, password, query or fragment; the reason when refused. */
export function checkEndpoint(raw: unknown): { url: URL } | { reason: string } {
	const text = typeof raw === 'string' ? raw.trim() : '';
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return { reason: 'is not a URL (e.g. https://s3.eu-central-1.amazonaws.com)' };
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return { reason: 'must start with https:// (or http://)' };
	if (url.username || url.password || url.search || url.hash)
		return { reason: 'must not hold a user name, password, query string or fragment' };
	return { url };
}

/** A bucket name as S3 allows it (3-63 characters: lower-case letters, digits, dots, hyphens). */
export const BUCKET_PATTERN = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The URL of a bucket (no key) or of an object, with an optional query (values unencoded). */
export function s3Url(
	target: StorageEndpoint,
	bucket: string,
	key?: string,
	query: Record<string, string> = {},
): URL {
	const checked = checkEndpoint(target.endpoint);
	if ('reason' in checked) throw new Error(`The storage endpoint ${checked.reason}`);
	const base = checked.url;
	const prefix = base.pathname.replace(/\/+$/, '');
	const objectPath = key === undefined ? '' : `/${key.split('/').map(uriEncode).join('/')}`;
	const virtual = target.addressing === 'virtualHost' && bucket !== '';
	const host = virtual ? `${bucket}.${base.host}` : base.host;
	const path = virtual ? `${prefix}${objectPath || '/'}` : `${prefix}/${bucket}${objectPath}`;
	const search = Object.entries(query)
		.map(([k, v]) => (v === '' ? uriEncode(k) : `${uriEncode(k)}=${uriEncode(v)}`))
		.join('&');
	return new URL(`${base.protocol}//${host}${path}${search ? `?${search}` : ''}`);
}
