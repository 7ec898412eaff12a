// What the trigger remembers between polls, and how a poll decides which listed videos are new.
// Pure functions over plain data: the node reads and writes the result in its static data.
//
// The list is newest purchase first, but the order of purchases made in the same second is
// not specified, and a purchase can be recorded a moment after a later one was already
// listed. So the trigger does not stop at "the first video it has seen": it remembers
//  - `since`: every purchase before this second has been handled, so paging stops at the
//    first video purchased earlier (on a quiet poll that is inside the first page);
//  - `keys`: the video keys it has listed, always including every video purchased at or
//    after `since` (so a video bought in an already-seen second is still recognised as new),
//    plus the most recent others (so a video that reappears on top because the team owner
//    licensed it too is not emitted twice).
// `since` trails the newest purchase by OVERLAP_SECONDS while that purchase is recent, and
// moves just past it once it is older than SETTLE_SECONDS: no new purchase can get that
// second any more, so a quiet poll reads only what is newer.
// `since` never passes this machine's clock minus OVERLAP_SECONDS, and a purchase time more
// than MAX_SKEW_SECONDS ahead of that clock (milliseconds sent as seconds, a server clock far
// ahead) is no usable date: either would otherwise lift `since` above every later purchase and
// silence the trigger. Videos without a usable date are recognised by
// their keys alone: paging stops after KNOWN_UNDATED_RUN of them in a row are known, and they are kept
// only as room allows, so they neither force a full re-read nor grow the state.
import type { IDataObject } from 'n8n-workflow';

import { sameBaseUrl } from '../shared/transport/base-url';
import type { Seen } from '../shared/trigger/poll-skeleton';
import { readKeys, readPending, type SeenState } from '../shared/trigger/saved-state';
import { videoKeyOf } from '../shared/trigger/video-key';

export const STATE_VERSION = 1;
/** Purchases recorded up to this long before the newest seen one are still caught. */
export const OVERLAP_SECONDS = 60;
/** After this long, no purchase can still appear at or before the newest seen second. */
export const SETTLE_SECONDS = 600;
/** Keys kept beyond those `since` requires. */
export const KEEP_KEYS = 1000;
/** Keys kept at most, even when more purchases share the last OVERLAP_SECONDS (the state's size bound). */
export const MAX_KEYS = 2000;
/** How far ahead of this machine's clock a purchase time may be and still count. */
export const MAX_SKEW_SECONDS = 300;
/** Known videos without a usable date in a row after which paging stops. */
export const KNOWN_UNDATED_RUN = 50;

export interface PartnerState extends SeenState {
	version: typeof STATE_VERSION;
	/** Unix seconds; purchases before it are all handled. null: the account had no licence yet. */
	since: number | null;
}

/**
 * purchased_at as Unix seconds, or undefined when the API sent null, no number, or a time more
 * than MAX_SKEW_SECONDS after `nowSeconds` (then it is no usable date).
 */
export function purchasedAt(video: IDataObject, nowSeconds = Infinity): number | undefined {
	const value = video.purchased_at;
	return typeof value === 'number' &&
		Number.isFinite(value) &&
		value <= nowSeconds + MAX_SKEW_SECONDS
		? value
		: undefined;
}

/** The key a licence is remembered by (video-key.ts). */
export const videoKey = (video: IDataObject) => videoKeyOf(video.video_key);

/**
 * Where `since` goes for the newest purchase seen, at Unix time `nowSeconds`: never past now
 * minus the overlap, so a purchase dated a little ahead (a server clock ahead) cannot hide the
 * purchases made after it at this machine's time.
 */
export function sinceFor(newest: number, nowSeconds: number): number {
	return Math.min(
		nowSeconds - newest > SETTLE_SECONDS ? newest + 1 : newest - OVERLAP_SECONDS,
		nowSeconds - OVERLAP_SECONDS,
	);
}

/** A saved `since` as this poll may use it: one saved ahead of the clock (by older versions) is pulled back. */
const usableSince = (since: number | null | undefined, nowSeconds: number): number | null =>
	since === null || since === undefined ? null : Math.min(since, nowSeconds - OVERLAP_SECONDS);

/** The saved state, or undefined when there is none usable (first activation, other API, older format). */
export function readPartnerState(data: IDataObject, baseUrl: string): PartnerState | undefined {
	if (data.version !== STATE_VERSION || !sameBaseUrl(data.baseUrl, baseUrl)) return undefined;
	const since = data.since;
	if (since !== null && (typeof since !== 'number' || !Number.isFinite(since))) return undefined;
	if (!Array.isArray(data.keys)) return undefined;
	return {
		version: STATE_VERSION,
		baseUrl,
		since,
		keys: readKeys(data.keys, MAX_KEYS),
		...readPending(data, 'video_key'),
	};
}

/**
 * When paging may stop: at the first video purchased before the boundary, or after
 * KNOWN_UNDATED_RUN known undated videos in a row, once at least `minListed` videos have been
 * listed. Without a saved state the boundary is fixed by the newest purchase (the first dated
 * video of the list), which is itself listed: the state is built from it.
 */
export function purchaseStop(
	state: PartnerState | undefined,
	nowSeconds: number,
	minListed = 0,
): (video: IDataObject) => boolean {
	let boundary = usableSince(state?.since, nowSeconds);
	let listed = 0;
	let knownRun = 0;
	const known = new Set([...(state?.keys ?? []), ...(state?.pending.map(videoKey) ?? [])]);
	return (video) => {
		const time = purchasedAt(video, nowSeconds);
		if (boundary !== null && time !== undefined && time < boundary && listed >= minListed)
			return true;
		knownRun = time === undefined && known.has(videoKey(video)) ? knownRun + 1 : 0;
		if (knownRun > KNOWN_UNDATED_RUN && listed >= minListed) return true;
		listed++;
		if (!state && boundary === null && time !== undefined) boundary = sinceFor(time, nowSeconds);
		return false;
	};
}

/**
 * Given what this poll listed (newest first, up to the stop), which videos are new and what
 * to remember. Without a saved state nothing is new unless `existing` > 0: then that many of
 * the newest licences are.
 */
export function partnerSeen(
	state: PartnerState | undefined,
	listed: IDataObject[],
	options: { baseUrl: string; nowSeconds: number; existing?: number },
): Seen<PartnerState> {
	const known = new Set([...(state?.keys ?? []), ...(state?.pending.map(videoKey) ?? [])]);
	const usable = listed.filter((video) => videoKey(video) !== '');
	const fresh = state
		? usable.filter((video) => !known.has(videoKey(video)))
		: usable.slice(0, options.existing ?? 0);

	const times = usable
		.map((video) => purchasedAt(video, options.nowSeconds))
		.filter((time): time is number => time !== undefined);
	let since = usableSince(state?.since, options.nowSeconds);
	if (times.length) {
		const proposed = sinceFor(Math.max(...times), options.nowSeconds);
		since = since === null ? proposed : Math.max(since, proposed);
	}
	// Every listed dated video at or after `since` must stay known; the rest (undated ones
	// included, newest first) as room allows, never more than MAX_KEYS.
	const required = usable.filter((video) => {
		const time = purchasedAt(video, options.nowSeconds);
		return time !== undefined && (since === null || time >= since);
	});
	const keys = [...new Set([...required, ...usable].map(videoKey).concat(state?.keys ?? []))].slice(
		0,
		Math.min(MAX_KEYS, Math.max(KEEP_KEYS, required.length)),
	);

	return {
		fresh,
		next: (pending, failures) => ({
			version: STATE_VERSION,
			baseUrl: options.baseUrl,
			since,
			keys,
			pending,
			failures,
		}),
	};
}
