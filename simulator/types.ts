/** Public types of the GridBank simulator (re-exported by index.ts). */
import type { ObjectReplacement } from './byte-faults';
import type { ChecksumKind } from './checksums';
import type { UnevenLinkOptions } from './uneven-link';
import type { WanLinkOptions } from './wan-link';

export type { ObjectReplacement } from './byte-faults';
export type { ChecksumKind } from './checksums';

export type { UnevenLinkOptions } from './uneven-link';
export type { WanLinkOptions } from './wan-link';

export type Tier = 'starter' | 'growth' | 'scale' | 'enterprise';

export interface TierRate {
	/** Sustained requests per second (token refill rate). */
	perSecond: number;
	/** Bucket size: requests that may be made at once. */
	burst: number;
}

/**
 * Misbehaving Partner paging (hardening faults), from page 2 on: 'repeatCursor' answers every
 * page with the cursor it was asked for; 'cycleCursors' sends page 3's reader back to page 2;
 * 'emptyPages' / 'missingList' / 'duplicatePages' keep sending fresh cursors with an empty
 * `videos`, no `videos` at all, or page 1's videos again. The list ends after PAGING_FAULT_PAGES
 * pages whatever the style, so a client without its own bound still stops.
 */
export type PartnerPagingFault =
	| 'off'
	| 'repeatCursor'
	| 'cycleCursors'
	| 'emptyPages'
	| 'missingList'
	| 'duplicatePages';

/** How the Partner list says "no more pages" (docs/gridbank-api.md#partner-list: all three mean the end). */
export type EndCursorStyle = 'absent' | 'null' | 'empty';

export type DispositionMode = 'filename*' | 'filename' | 'url-only' | 'none';

export interface SimulatorOptions {
	/** API port; default 0 = a free port. The cli uses ${PORT:-4010}. */
	port?: number;
	/** Storage (signed URL) port; default 0 = a free port. The cli uses PORT+1. */
	storagePort?: number;
	/** Port of the third origin that storage redirects to (redirectStorage fault); default 0. */
	redirectPort?: number;
	/** ms clock used for purchased_at, URL expiry, rate windows, usage lease period, log `at`. */
	now?: () => number;
	/** Partner requests per ACCOUNT per window (all keys of an account share it); 0 = unlimited. Default 300. */
	partnerRatePerMinute?: number;
	/** Partner rate window in ms; default 60000. */
	rateWindowMs?: number;
	/**
	 * X-RateLimit-Limit / -Remaining / -Reset on every authenticated Partner response (429
	 * included): the account's window limit, what is left of it, and the Unix second (rounded
	 * up) when the oldest counted request leaves the window. Default true; false = a server
	 * that sends only Retry-After.
	 */
	partnerRateLimitHeaders?: boolean;
	/** Enterprise tier rate limiting (per second + burst, docs/gridbank-api.md#enterprise-rate-limits); default true. */
	enterpriseRateLimit?: boolean;
	/** Override the per-tier rates (tests shrink them). */
	enterpriseRates?: Partial<Record<Tier, TierRate>>;
	/** Licences of the demo member + its team owner together; default 1250. */
	partnerLicences?: number;
	/** Catalogue size (all searchable on the Enterprise API); default 10000. */
	enterpriseVideos?: number;
	/** Keep at most about this many log entries (oldest dropped); default unlimited. For long runs (cli, benchmarks). */
	logLimit?: number;
	/** How the last Partner page signals the end; default 'absent'. */
	partnerEndCursor?: EndCursorStyle;
}

export interface LoggedRequest {
	target: 'api' | 'storage' | 'redirect';
	method: string;
	/** Raw path as received (percent-encoding preserved), without the query string. */
	path: string;
	/** Decoded query parameters (last value wins when repeated). */
	query: Record<string, string>;
	/** Request headers, lower-case names. */
	headers: Record<string, string | undefined>;
	/** Response status; 0 when the connection was destroyed before a status was sent. */
	status: number;
	/** now() when the request arrived. */
	at: number;
	/** Body bytes written so far: on storage answers and on answers of the oversizeApiBody fault. */
	bytesSent?: number;
}

export interface EnterpriseCreator {
	username: string;
	name: string | null;
	bio: string | null;
	profile_image: string | null;
}

export interface VideoLocation {
	city: string | null;
	region: string | null;
	country: string | null;
}

/**
 * A catalogue video as the Enterprise API shows it (docs/gridbank-api.md#enterprise-video), plus three
 * simulator-only fields used by search filters and sorts (never sent in responses).
 */
export interface EnterpriseVideo {
	id: string;
	title: string | null;
	description: string | null;
	duration: number | null;
	width: number | null;
	height: number | null;
	url: string | null;
	thumbnail: string | null;
	creator: EnterpriseCreator;
	location: VideoLocation | null;
	keywords: string[] | null;
	/** simulator-only: value matched by the `theme` search filter (case-insensitive). */
	theme: string | null;
	/** simulator-only: `sort=popular` key (higher first). */
	popularity: number;
	/** simulator-only: `sort=recent` key, ms since epoch (newer first). */
	publishedAt: number;
}

export interface VideoFile {
	size: number;
	/** null = the Content-Type header is omitted. */
	contentType: string | null;
	fileName: string;
	disposition: DispositionMode;
	rangeSupport: boolean;
}

export interface FailNextOptions {
	/** 422: a FastAPI validation body (as if GridBank tightened a bound the client respects). */
	status: 400 | 403 | 404 | 422 | 429 | 500 | 502 | 503 | 504;
	/** 422 only: the validation entries; default one per_page entry. */
	validation?: Array<{ loc: Array<string | number>; msg: string; type: string }>;
	count: number;
	/** string: the raw request path contains it; RegExp: tested against the raw path. Default: every path. */
	path?: string | RegExp;
	/** 429 only: Retry-After value, seconds ("3") or an HTTP date. Default "1". */
	retryAfter?: string;
	/** Body `<html><body><h1>502 Bad Gateway</h1></body></html>` as text/html instead of the API's JSON error. */
	htmlBody?: boolean;
	/** Add X-RateLimit-Limit/Remaining/Reset headers. */
	rateLimitHeaders?: boolean;
	/** With rateLimitHeaders: X-RateLimit-Reset this many seconds ahead (GridBank's 429: a minute). Default 1. */
	rateLimitResetSeconds?: number;
	/** Which listener the failure applies to; default 'api'. */
	target?: 'api' | 'storage';
	/** API only: GridBank's JSON error of at most this many bytes, its message near-misses of the key (hostile-body.ts). */
	bodyBytes?: number;
}

export interface ResetConnectionsOptions {
	count: number;
	path?: string | RegExp;
	target?: 'api' | 'storage';
	/** Send the status line, headers and this many body bytes before destroying the socket. */
	afterBytes?: number;
}

/** Addition: a fault for storage GETs whose Range does not start at byte 0 (parallel segments, resumes). */
export interface RangedFault {
	/**
	 * cut: the body stops after `afterBytes` (default half the range) and the connection drops;
	 * wrongContentRange: another range is served, 4096 bytes further on, its Content-Range true to it;
	 * ignoreRange: 200 with the whole file, as storage that does not honour Range.
	 */
	fault: 'cut' | 'wrongContentRange' | 'ignoreRange';
	afterBytes?: number;
}

/** What the rateHeaders fault puts on a response in place of the real X-RateLimit-* values. */
export interface RateHeadersOverride {
	/** Only matching API paths (substring of the raw path, or a RegExp without the g flag); default every path. */
	path?: string | RegExp;
	limit?: number;
	remaining?: number;
	/** X-RateLimit-Reset exactly as given ("999999999", "1e12", "soon"), ... */
	reset?: string;
	/** ...or the Unix second `resetInSeconds` from the simulator's now() (negative: in the past); default 60. */
	resetInSeconds?: number;
}

export interface Faults {
	revokeKey(key: string): void;
	withdrawPartnerAccess(key: string, o?: { afterRequests?: number }): void;
	setSubscription(key: string, active: boolean): void;
	failNext(o: FailNextOptions): void;
	resetConnections(o: ResetConnectionsOptions): void;
	rejectCursorOnPage(n: number): void;
	cutDownloadAfter(bytes: number, count?: number): void;
	declareWrongLength(delta: number, count?: number): void;
	/** Storage sends `extra` bytes past the file's end (Content-Length counts them; Content-Range keeps the true size). */
	sendExtraBytes(extra: number, count?: number): void;
	slowDownload(bytesPerSecond: number): void;
	/** Addition: a WAN-like link in front of storage (wan-link.ts); null turns it off. */
	wanLink(o: WanLinkOptions | null): void;
	/** Per-connection speeds and a stall on the WAN link (set wanLink first); null: every connection alike. */
	unevenLink(o: UnevenLinkOptions | null): void;
	/** Addition: the next `count` storage GETs with a Range not starting at byte 0 get `o.fault`. */
	faultRangedRequests(o: RangedFault, count?: number): void;
	expireUrlsEarly(count?: number): void;
	storageRefuse(status: 400 | 401 | 403 | 410, count: number): void;
	redirectStorage(count?: number): void;
	nonJsonOkBody(path: string | RegExp, count?: number): void;
	nullableFieldsNull(on: boolean): void;
	extraFields(on: boolean): void;
	edgeBlock(on: boolean): void;
	/** Addition: how the last Partner page signals the end (absent / null / ""). */
	endCursorStyle(style: EndCursorStyle): void;
	/** Storage answers the next `count` GETs (with resumesOnly: those whose Range starts past byte 0) from `offset` bytes past the byte asked for, as a 206 whose Content-Range says so. */
	misplaceRange(offset: number, count?: number, o?: { resumesOnly?: boolean }): void;
	/** Storage answers the next `count` GETs whose Range starts past byte 0 with 200 and the whole file. */
	ignoreRange(count?: number): void;
	/** Storage answers the next `count` GETs with 200 and an HTML sign-in page ('html') or an empty body ('empty'). */
	storageServesPage(kind: 'html' | 'empty', count?: number): void;
	/** The next `count` download URL responses (both APIs) carry `value` as their `url`. */
	signedUrlValue(value: unknown, count?: number): void;
	/** The next `count` 200 API responses on a matching path carry `body` (any JSON value) instead. */
	okBodyInstead(path: string | RegExp, body: unknown, count?: number): void;
	/** The next `count` storage answers carry exactly this Content-Disposition, sent as raw UTF-8 bytes. */
	rawDisposition(value: string, count?: number): void;
	/** The next `count` Enterprise download answers state file_size off by `delta` bytes (storage serves the true file). */
	misstateFileSize(delta: number, count?: number): void;
	/** The next `count` Partner requests on a matching path get 403 with this GridBank error code (before any other check but the edge). */
	partnerForbidden(path: string | RegExp, code: string, count?: number): void;
	/** API response bodies are sent one byte every `msPerByte` ms, headers at once; 0 turns it off. */
	dripApi(msPerByte: number): void;
	/**
	 * The next `count` 200 API answers on a matching path carry their JSON with a leading
	 * "padding" field of `bytes` bytes (Infinity: the body never ends), chunked, with
	 * back-pressure; the log entry's `bytesSent` counts what was written.
	 */
	oversizeApiBody(path: string | RegExp, bytes: number, count?: number): void;
	/** Addition: clear every fault switch (state, log and accounts are kept). */
	clear(): void;
	/**
	 * Addition: GridBank's clock runs `ms` from this machine's (negative: behind): the Date
	 * header of every response, expires_at, storage's expiry check, purchase times and rate
	 * windows all follow it. 0 restores it.
	 */
	clockOffset(ms: number): void;
	/** Addition: API and storage responses carry no Date header (on) or one from GridBank's clock (off, the default). */
	omitDateHeader(on: boolean): void;
	/**
	 * Hardening: the next `count` API requests (matching `path`) are answered with a redirect:
	 * 'other' to the same path and query on the redirect origin (sim.redirectUrl, which records
	 * what it receives), 'same' to the same path and query on the API origin. Default 302.
	 */
	redirectApi(o: {
		to: 'other' | 'same';
		count?: number;
		path?: string | RegExp;
		status?: 301 | 302 | 303 | 307 | 308;
	}): void;
	/**
	 * Hardening: every API error response (JSON or HTML, failNext included) echoes the request's
	 * Authorization header, the bare secret after its dot, and a JSON-escaped copy of the header;
	 * so does an `X-Echo` response header.
	 */
	echoAuthorization(on: boolean): void;
	/**
	 * echoAuthorization, and the key in every form of key-forms.ts besides (base64 / base64url,
	 * hex, other cases, all percent-encoded, HTML entities, cut after 12 characters of the secret).
	 */
	echoKeyForms(on: boolean): void;
	/** Hardening: misbehaving Partner paging (see PartnerPagingFault); 'off' restores it. */
	partnerPaging(style: PartnerPagingFault): void;
	/** Hardening: Enterprise search pages after the first come back empty with has_more true. */
	enterpriseEmptyPages(on: boolean): void;
	/** Hardening: Partner list items carry purchased_at in milliseconds instead of seconds. */
	purchaseTimesInMs(on: boolean): void;
	/** Hardening: storage has no master for this video: its signed URL answers 404 NoSuchKey. */
	missingMaster(videoKey: string): void;
	/**
	 * Bytes: from now on storage GETs are counted (1 = the next); before answering each one in
	 * `atRequests`, every file is replaced by another version of the same size (other bytes:
	 * fileBytes(versionedId(id, n)), a new ETag and Last-Modified). Storage honours If-Range (a
	 * ranged GET naming another version gets 200 and the whole current object) unless
	 * `ifRange: 'ignore'`.
	 */
	replaceObject(o: ObjectReplacement): void;
	/** Bytes: storage answers carry neither ETag nor Last-Modified ('etag': no ETag, Last-Modified only); false restores both. */
	omitValidators(on: boolean | 'etag'): void;
	/**
	 * Field hardening IV: the next `count` 206 answers from past byte 0 (resumes, segments) carry
	 * neither ETag nor Last-Modified (a CDN stripping them); with replaceObject({ifRange: 'ignore'})
	 * they serve another version's bytes unmarked.
	 */
	stripValidatorsOnParts(count?: number): void;
	/**
	 * Bytes: every storage answer states a content check of the file (checksums.ts): S3's
	 * x-amz-checksum-sha256 (FULL_OBJECT, or COMPOSITE), x-goog-hash (crc32c and md5, or crc32c
	 * alone), or a single-part upload's ETag (the object's MD5); `wrong`: the digest of other
	 * bytes. false: none (the default, with a multipart-style ETag).
	 */
	sendChecksum(kind: ChecksumKind | false, o?: { wrong?: boolean }): void;
	/** Field hardening IV: the next `count` storage GETs from past byte 0 (resumes, segments) answer 503 SlowDown with `Retry-After: retryAfter`. */
	busyParts(retryAfter: string, count?: number): void;
	/** Bytes: the next `count` storage answers state `total` as the file's size (Content-Range total and Content-Length), send the true bytes, then close. */
	claimSize(total: number, count?: number): void;
	/** Bytes: the next `count` storage bodies send `bytes` bytes, then nothing for `ms` ms (connection open), then the rest. */
	stallAfter(bytes: number, ms: number, count?: number): void;
	/** Bytes: the next `count` Enterprise download answers carry `value` (any JSON) as file_size. */
	fileSizeValue(value: unknown, count?: number): void;
	/**
	 * Addition (trigger hardening): every storage GET of this video's file answers 200 with an HTML
	 * sign-in page ('html') or an empty body ('empty'), other videos are served; null restores it.
	 */
	storagePageFor(videoKey: string, kind: 'html' | 'empty' | null): void;
	/** Addition: the next `count` API requests (default 1) are answered with bytes that are not HTTP (another service on the port). */
	apiNotHttp(count?: number): void;
	/**
	 * Time hardening: the next `count` API responses (any status, failNext included) on a matching
	 * path carry these X-RateLimit-* values in place of the real ones (default Limit 300,
	 * Remaining 0, Reset a minute ahead): a skewed server clock, a hostile proxy.
	 */
	rateHeaders(o: RateHeadersOverride, count?: number): void;
	/** Time hardening: the Partner list never ends: fresh cursors, new videos (purchased now) on every page. */
	endlessPartnerList(on: boolean): void;
}

export interface PartnerAccountInfo {
	key: string;
	accountId: string;
	secret: string;
}

export interface Simulator {
	baseUrl: string;
	storageUrl: string;
	/** Addition: the third origin used by redirectStorage. */
	redirectUrl: string;
	log: LoggedRequest[];
	clearLog(): void;
	/** Everything: a fresh catalogue and accounts as seeded, no faults, empty log and rate windows. */
	reset(): void;
	/**
	 * Addition: what one test leaves behind (faults, the request log, rate-limit windows, files
	 * set with setVideoFile), keeping the accounts and videos a suite created. The test harness
	 * calls it before every test.
	 */
	clearTestState(): void;
	close(): Promise<void>;
	createPartnerAccount(o: {
		licences: number;
		teamOwnerLicences?: number;
		purchasedAtStart?: number;
	}): PartnerAccountInfo;
	/** Addition: another key for the same account as `key` (up to 10 per member). */
	addPartnerKey(key: string): string;
	addPartnerLicences(
		key: string,
		n: number,
		o?: { purchasedAt?: number; videoKeys?: string[] },
	): string[];
	/** Addition: a refund or takedown: these licences of `key`'s account vanish from the list, downloads answer 403. */
	removePartnerLicences(key: string, videoKeys: string[]): void;
	/** Addition: the videos `key` sees, in list order (newest purchase first). */
	partnerLicences(key: string): Array<{ video_key: string; purchased_at: number }>;
	/** Addition: a catalogue video that exists but `key`'s account cannot see (403 not_licensed). */
	unlicensedVideoKey(key: string): string;
	createEnterpriseAccount(o?: { tier?: Tier; subscription?: boolean }): { key: string };
	addEnterpriseVideos(videos: Array<Partial<EnterpriseVideo>>): string[];
	/** Addition: the video's time becomes `publishedAt` (ms, default now): it moves in `recent` searches. */
	republishVideo(id: string, publishedAt?: number): void;
	/** Addition: the videos drop out of every search (metadata and downloads still answer). */
	/** `recent` searches serve same-second videos in the seed's own order (0: by id, the default). */
	reorderTies(seed: number): void;
	/** Runs `hook` after each search page is built, before it is sent (it may change the page); cleared with the faults. */
	afterSearchPage(hook: (page: number, body: Record<string, unknown>) => void): void;
	withdrawVideos(ids: string[]): void;
	/** Addition: withdrawn videos come back to search at the time they had. */
	restoreVideos(ids: string[]): void;
	/** Addition: a catalogue video (metadata + simulator-only fields), or undefined. */
	getVideo(idOrKey: string): EnterpriseVideo | undefined;
	/** Addition: the effective file served for a video. */
	getVideoFile(idOrKey: string): VideoFile;
	setVideoFile(
		idOrKey: string,
		f: {
			size?: number;
			contentType?: string | null;
			fileName?: string;
			disposition?: DispositionMode;
			rangeSupport?: boolean;
		},
	): void;
	faults: Faults;
}
