// What differs between GridBank's two APIs, as data: the shared transport, paging, error
// code, video picker and video shape read this table and never branch on which node called them.
import type { VideoFieldMap } from '../descriptions/video-shape';

export interface ApiProfile {
	/** Name used in messages: "GridBank Partner API". */
	label: string;
	credentialType: 'gridBankPartnerApi' | 'gridBankEnterpriseApi';
	pathPrefix: string;
	/** Largest per_page the list/search endpoint accepts. */
	maxPerPage: number;
	/** Field that identifies a video in list/search results. */
	idField: string;
	/** Client-side pacing per key within this process; undefined = none needed. */
	requestsPerMinute?: number;
	/** Shape a key must have, checked before any request; undefined = any non-empty key. */
	keyPattern?: RegExp;
	keyFormatHint?: string;
	/** Where users find valid video ids, for "not found" errors. */
	findVideosHint: string;
	/** The API's own error body, as opposed to an edge/proxy body: decides what a 403 means. */
	hasErrorEnvelope(body: unknown): boolean;
	/** Message and description for a 403 that carries the API's envelope. */
	/** unknown: a code this node does not know (quoted, not read as a licence problem). */
	forbidden(code: string | undefined, subject: string | undefined): { message: string; description: string; unknown?: boolean };
	/** Which response field holds each field of the SDKs' Video object (docs/gridbank-api.md#sdk-field-names). */
	videoFields: VideoFieldMap;
	/** The listing the video picker ("From list") reads. */
	videoList: {
		path: string;
		/** Opaque cursor (next_cursor) or page number (has_more) paging. */
		paging: 'cursor' | 'page';
		/** Query parameter the typed text goes into; undefined: the API has no search, titles are matched here. */
		searchParam?: string;
		/** The API's bound on that parameter. */
		maxSearchLength?: number;
	};
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** Partner 403s: access withdrawn, a video not licensed (GridBank's SDKs: any other 403 of a video), else quoted as it came. */
function partnerForbidden(code: string | undefined, subject: string | undefined) {
	if (code === 'partner_access_revoked')
		return {
			message: 'Partner API access has been withdrawn for this account',
			description:
				'GridBank has revoked Partner API access for the whole account. A new API key will not help: contact GridBank support to restore access.',
		};
	if (subject && (code === undefined || code === 'not_licensed'))
		return {
			message: `Video "${subject}" is not licensed by this account`,
			description:
				'Only videos licensed by this account (or its team owner) can be downloaded. License it on GridBank first, or pick a key from List Licensed Content.',
		};
	return {
		message: `GridBank refused the request (HTTP 403${code ? `, code "${code}"` : ''})`,
		description: 'GridBank did not allow this request for this account. Check the account on GridBank, and contact GridBank support if it persists.',
		unknown: true,
	};
}

export const PARTNER: ApiProfile = {
	label: 'GridBank Partner API',
	credentialType: 'gridBankPartnerApi',
	pathPrefix: '/partner/v1',
	maxPerPage: 100,
	idField: 'video_key',
	requestsPerMinute: 300,
	keyPattern: /^apik_[A-Za-z0-9_-]+\.[^\s.][^\s]*$/,
	keyFormatHint: 'apik_<id>.<secret>, for example apik_7f3a.Xk29…',
	findVideosHint: 'Use the List Licensed Content operation to see the video keys this account can download.',
	hasErrorEnvelope: (body) => isObject(body) && isObject(body.detail) && isObject(body.detail.error),
	forbidden: (code, subject) => partnerForbidden(code, subject),
	videoFields: {
		id: 'video_key',
		title: 'title',
		duration: 'duration_seconds',
		url: 'preview_url',
		thumbnail: 'thumbnail_url',
		creator: 'creator',
		purchasedAt: 'purchased_at',
	},
	videoList: { path: '/content', paging: 'cursor' },
};

export const ENTERPRISE: ApiProfile = {
	label: 'GridBank Enterprise API',
	credentialType: 'gridBankEnterpriseApi',
	pathPrefix: '/external/v1',
	maxPerPage: 80,
	idField: 'id',
	findVideosHint: 'Use the Search operation to find valid video ids.',
	hasErrorEnvelope: (body) => isObject(body) && 'detail' in body,
	forbidden: () => ({
		message: 'No active subscription for this operation',
		description:
			'The GridBank Enterprise account has no active subscription (or its lease is suspended or ended) for this operation. Upgrade the plan or renew the lease in the GridBank dashboard.',
	}),
	// Search results and metadata share one shape; the API has no purchase time.
	videoFields: {
		id: 'id',
		title: 'title',
		duration: 'duration',
		url: 'url',
		thumbnail: 'thumbnail',
		creator: 'creator',
		description: 'description',
		width: 'width',
		height: 'height',
		location: 'location',
		keywords: 'keywords',
	},
	videoList: { path: '/videos/search', paging: 'page', searchParam: 'q', maxSearchLength: 200 },
};
