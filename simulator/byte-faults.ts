/**
 * Fault switches of field hardening III (bytes): storage whose object is replaced by another
 * version of the same size mid-download (honouring If-Range or not), that sends no validator,
 * that states an absurd size, that stalls silently; Enterprise file_size of any JSON value.
 * Counted like the other faults; FaultState.clear() clears these too.
 */
import { createHash } from 'node:crypto';

import type { ChecksumKind } from './checksums';

interface Counted<T> {
	left: number;
	o: T;
}

function take<T>(list: Array<Counted<T>>): T | undefined {
	const entry = list.find((e) => e.left > 0);
	if (!entry) return undefined;
	entry.left--;
	if (entry.left <= 0) list.splice(list.indexOf(entry), 1);
	return entry.o;
}

/** The id whose bytes (fileBytes) a version of a video's file has: version 0 is the original. */
export const versionedId = (id: string, version: number) =>
	version === 0 ? id : `${id}#version-${version}`;

const BASE_MODIFIED = Date.UTC(2024, 9, 1, 12);

/**
 * The validators storage sends for a version of a file. The ETag is a multipart upload's
 * (`"<hex>-<parts>"`), as large masters are uploaded: not the object's MD5, so a download checks
 * it only when a test asks for a single-part ETag (sendChecksum('etag-md5')).
 */
export function validators(id: string, size: number, version: number) {
	const parts = Math.max(1, Math.ceil(size / (16 * 1024 * 1024)));
	return {
		etag: `"${createHash('md5')
			.update(`${versionedId(id, version)}:${size}`)
			.digest('hex')}-${parts}"`,
		lastModified: new Date(BASE_MODIFIED + version * 3_600_000).toUTCString(),
	};
}

export interface ObjectReplacement {
	/** Storage GETs counted from the moment the switch is set (1 = the next): the object is replaced before answering each of these. */
	atRequests: number[];
	/** 'honour' (default, as S3): a ranged GET whose If-Range no longer matches gets 200 and the whole new object; 'ignore': the range of the new object is served anyway. */
	ifRange?: 'honour' | 'ignore';
}

export class ByteFaults {
	/** The current version of every file (all videos at once; tests download one). */
	version = 0;
	private replacing: { left: number[]; seen: number } | undefined;
	/** A mismatching If-Range is ignored (set with replaceObject). */
	ignoreIfRange = false;
	/** true: no ETag nor Last-Modified; 'etag': Last-Modified only. */
	omitValidators: boolean | 'etag' = false;
	/** How many more 206 answers from past byte 0 (resumes, segments) carry neither ETag nor Last-Modified. */
	strippedParts = 0;
	/** How many more GETs from past byte 0 answer 503 SlowDown with Retry-After: busyRetryAfter. */
	busyParts = 0;
	busyRetryAfter = '1';
	claimedSizes: Array<Counted<number>> = [];
	stalls: Array<Counted<{ afterBytes: number; ms: number }>> = [];
	fileSizes: Array<Counted<{ value: unknown }>> = [];
	/** The content check storage states for every file (sendChecksum). */
	checksum: { kind: ChecksumKind; wrong: boolean } | undefined;

	clear(): void {
		this.checksum = undefined;
		this.version = 0;
		this.replacing = undefined;
		this.ignoreIfRange = false;
		this.omitValidators = false;
		this.strippedParts = 0;
		this.busyParts = 0;
		this.claimedSizes = [];
		this.stalls = [];
		this.fileSizes = [];
	}

	replaceObject(o: ObjectReplacement): void {
		if (!o.atRequests.every((n) => Number.isInteger(n) && n >= 1))
			throw new Error('replaceObject: atRequests must be positive integers');
		this.replacing = { left: [...o.atRequests].sort((a, b) => a - b), seen: 0 };
		this.ignoreIfRange = o.ifRange === 'ignore';
	}

	/** Called once per storage GET of a file: the version that answers it. */
	versionOfNextGet(): number {
		const r = this.replacing;
		if (!r) return this.version;
		r.seen++;
		while (r.left.length > 0 && (r.left[0] as number) <= r.seen) {
			r.left.shift();
			this.version++;
		}
		return this.version;
	}

	takeClaimedSize(): number | undefined {
		return take(this.claimedSizes);
	}

	takeStall(): { afterBytes: number; ms: number } | undefined {
		return take(this.stalls);
	}

	takeFileSize(): { value: unknown } | undefined {
		return take(this.fileSizes);
	}
}

/**
 * Whether a ranged GET's If-Range still names the object (RFC 9110 13.1.5): a strong ETag
 * equal to the current one, or exactly the current Last-Modified date. No If-Range: true.
 */
export function ifRangeMatches(
	value: string | undefined,
	current: { etag?: string; lastModified?: string },
): boolean {
	if (value === undefined) return true;
	const v = value.trim();
	if (v.startsWith('"')) return v === current.etag;
	return current.lastModified !== undefined && v === current.lastModified;
}
