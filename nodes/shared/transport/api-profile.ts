// What differs between GridBank's two APIs, as data: each API's profile lives in its node's
// transport/ folder; the shared transport, paging, error code, video picker and video shape read
// it and never branch on which node called them.
/** The library Video fields, in the libraries' order. */
export const VIDEO_FIELDS = [
	'id',
	'title',
	'duration',
	'url',
	'thumbnail',
	'creator',
	'purchasedAt',
	'description',
	'width',
	'height',
	'location',
	'keywords',
] as const;
export type VideoField = (typeof VIDEO_FIELDS)[number];

/** Library field → the response field that holds it; a field the API lacks is left out (and output as null). */
export type VideoFieldMap = Partial<Record<VideoField, string>>;

export interface ApiProfile {
	/** Name used in messages: "GridBank Partner API". */
	label: string;
	credentialType: 'gridBankPartnerApi' | 'gridBankEnterpriseApi';
	pathPrefix: string;
	/** Largest per_page the list/search endpoint accepts. */
	maxPerPage: number;
	/** Field that identifies a video in list/search results. */
	idField: string;
	/** Client-side pacing per key within this process, requests per rate window; undefined = none needed. */
	requestsPerWindow?: number;
	/**
	 * The API's rate window, the one home of it: the pacer counts in it, and no wait read from
	 * X-RateLimit-Reset lasts longer (rate-reset.ts). Tests and the benchmark shorten it on the
	 * profile object, as they shorten the simulator's; nothing else sets it.
	 */
	rateWindowMs: number;
	/** Shape a key must have, checked before any request; undefined = any non-empty key. */
	keyPattern?: RegExp;
	/** The sentence that shows a valid key's shape, when keyPattern refuses one. */
	keyFormatHint?: string;
	/** Where users find valid video ids, for "not found" errors. */
	findVideosHint: string;
	/** The API's own error body, as opposed to an edge/proxy body: decides what a 403 means. */
	hasErrorEnvelope(body: unknown): boolean;
	/**
	 * Message, description and failure cause for a 403 that carries the API's envelope. No cause:
	 * a code this node does not know (quoted, not read as a licence or key problem).
	 */
	forbidden(code: string | undefined, subject: string | undefined): Forbidden;
	/** Which response field holds each field of the SDKs' Video object (docs/gridbank-api.md#sdk-field-names). */
	videoFields: VideoFieldMap;
	/** Every path this node asks the API for, below pathPrefix: the only place they are written. */
	paths: ApiPaths;
	/** How the listing (paths.list) pages, as the video picker ("From list") reads it. */
	videoList: {
		/** Opaque cursor (next_cursor) or page number (has_more) paging. */
		paging: 'cursor' | 'page';
		/** Query parameter the typed text goes into; undefined: the API has no search, titles are matched here. */
		searchParam?: string;
		/** The API's bound on that parameter. */
		maxSearchLength?: number;
	};
}

export interface ApiPaths {
	/** The listing: Partner licences, Enterprise search (operations, triggers, the video picker). */
	list: string;
	/** A video's signed download URL. */
	download(id: string): string;
	/** What the credential's Test asks: a cheap request that needs a valid key. */
	credentialTest: { path: string; qs?: Record<string, string | number> };
}

export interface Forbidden {
	message: string;
	description: string;
	cause?: 'credential-invalid' | 'configuration-invalid';
}
