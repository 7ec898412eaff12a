// The Partner API as data for the shared transport and the credential: its paths (the only place
// they are written), key shape, paging, video fields and what its 403 codes mean.
import { type ApiProfile, type Forbidden } from '../../shared/transport/api-profile';
import { isObject } from '../../shared/transport/values';
import { encodeId } from '../../shared/validate';

/** Partner 403s with the envelope: access withdrawn; on a video, any other code means not licensed (as GridBank's SDKs read it); on a list, quoted as it came. */
function partnerForbidden(code: string | undefined, subject: string | undefined): Forbidden {
	if (code === 'partner_access_revoked')
		return {
			message: 'Partner API access has been withdrawn for this account',
			description:
				'GridBank has revoked Partner API access for the whole account. A new API key will not help: contact GridBank support to restore access.',
			cause: 'credential-invalid',
		};
	if (subject)
		return {
			message: `Video "${subject}" is not licensed by this account`,
			description:
				'Only videos licensed by this account (or its team owner) can be downloaded. License it on GridBank first, or pick a key from List Licensed Content.',
			cause: 'configuration-invalid',
		};
	return {
		message: `GridBank refused the request (HTTP 403${code ? `, code "${code}"` : ''})`,
		description:
			'GridBank did not allow this request for this account. Check the account on GridBank, and contact GridBank support if it persists.',
	};
}

export const PARTNER: ApiProfile = {
	label: 'GridBank Partner API',
	credentialType: 'gridBankPartnerApi',
	pathPrefix: '/partner/v1',
	maxPerPage: 100,
	idField: 'video_key',
	requestsPerWindow: 300,
	// GridBank counts the 300 over one minute.
	rateWindowMs: 60_000,
	keyPattern: /^apik_[A-Za-z0-9_-]+\.[^\s.][^\s]*$/,
	keyFormatHint: 'A Partner key looks like apik_<id>.<secret>, for example apik_7f3a.Xk29…',
	findVideosHint:
		'Use the List Licensed Content operation to see the video keys this account can download.',
	hasErrorEnvelope: (body) =>
		isObject(body) && isObject(body.detail) && isObject(body.detail.error),
	forbidden: partnerForbidden,
	videoFields: {
		id: 'video_key',
		title: 'title',
		duration: 'duration_seconds',
		url: 'preview_url',
		thumbnail: 'thumbnail_url',
		creator: 'creator',
		purchasedAt: 'purchased_at',
	},
	paths: {
		list: '/content',
		download: (videoKey) => `/videos/${encodeId(videoKey)}/download`,
		credentialTest: { path: '/content', qs: { per_page: 1 } },
	},
	videoList: { paging: 'cursor' },
};
