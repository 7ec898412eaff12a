// A downloaded file is one version of one object. The first answer's validator (a strong ETag,
// else Last-Modified) ties every later ranged request (If-Range, which S3 and CDNs honour by
// sending the whole new file) and every later answer is checked against it, so bytes of another
// version (a re-uploaded master, a CDN edge with an older copy) are never stitched in.
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import type { ItemRef } from '../validate';

import { type Body, TransferError } from '../transport/body-stream';
import { discard } from './ordered-output';
import { storageError } from './storage-errors';
import { header } from '../transport/values';

/** Storage answered with another version of the file than the one being downloaded. */
export class VersionChangedError extends TransferError {}

export interface ObjectVersion {
	etag?: string;
	lastModified?: string;
}

export function versionOf(headers: IN8nHttpFullResponse['headers']): ObjectVersion {
	return {
		etag: header(headers, 'etag')?.trim() || undefined,
		lastModified: header(headers, 'last-modified')?.trim() || undefined,
	};
}

/**
 * The If-Range value that ties a ranged request to this version: a strong ETag (a weak one never
 * matches), else the Last-Modified date; undefined when storage sent neither (nothing to tie to).
 */
export function ifRangeOf(version: ObjectVersion): string | undefined {
	if (version.etag && !version.etag.startsWith('W/')) return version.etag;
	return version.lastModified;
}

/** A proxy may weaken an ETag (W/"x"): the same opaque tag is the same version. */
const opaque = (etag: string) => etag.replace(/^W\//, '');
/** A validator quoted in a message: at most 80 characters, whatever storage sent. */
const quote = (value: string) => (value.length > 80 ? `${value.slice(0, 79)}…` : value);
const sameDate = (a: string, b: string) =>
	a === b || (!Number.isNaN(Date.parse(a)) && Date.parse(a) === Date.parse(b));

/**
 * How an answer shows it is another version than `expected`, or undefined. Each validator the
 * first answer carried must be on every later one, and agree: a CDN that strips it (and ignores
 * If-Range) could be serving another version's bytes. With none on the first, nothing to check.
 */
export function versionChange(expected: ObjectVersion, answer: ObjectVersion): string | undefined {
	if (expected.etag && !answer.etag)
		return `a later answer came without the ETag ${quote(expected.etag)} the first one carried`;
	if (expected.lastModified && !answer.lastModified)
		return `a later answer came without the Last-Modified ${quote(expected.lastModified)} the first one carried`;
	if (expected.etag && answer.etag && opaque(expected.etag) !== opaque(answer.etag))
		return `its ETag went from ${quote(expected.etag)} to ${quote(answer.etag)}`;
	if (
		expected.lastModified &&
		answer.lastModified &&
		!sameDate(expected.lastModified, answer.lastModified)
	)
		return `its Last-Modified went from ${quote(expected.lastModified)} to ${quote(answer.lastModified)}`;
	return undefined;
}

/** The answer when it is the expected version; otherwise its body is let go and VersionChangedError thrown. */
export function sameVersion(
	expected: ObjectVersion,
	response: IN8nHttpFullResponse,
): IN8nHttpFullResponse {
	const change = versionChange(expected, versionOf(response.headers));
	if (!change) return response;
	discard(response.body as Body);
	throw new VersionChangedError(change);
}

/** The file changed again after the download started over: failing beats a file of two versions. */
export function versionChangedError(item: ItemRef, change: string) {
	return storageError(
		item,
		"The file changed on GridBank's storage while it was downloading",
		`The video file was replaced by another version during the download (${change}), and again after the download started over from the beginning. Nothing was passed on, as the file would have mixed two versions. Try again in a few minutes; if it keeps happening, contact GridBank.`,
	);
}
