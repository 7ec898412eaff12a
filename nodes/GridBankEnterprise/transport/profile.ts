// The Enterprise API as data for the shared transport and the credential: its paths (the only
// place they are written), paging, video fields and what its 403 means.
import type { ApiPaths, ApiProfile } from '../../shared/transport/api-profile';
import { isObject } from '../../shared/transport/values';
import { encodeId } from '../../shared/validate';

/** The API's bound on the search's q (Query, and the video picker's typed text). */
export const MAX_QUERY_LENGTH = 200;

/** The Enterprise paths: the shared ones, a video's metadata and the usage. */
interface EnterprisePaths extends ApiPaths {
	video(id: string): string;
	usage: string;
}

export const ENTERPRISE: ApiProfile & { paths: EnterprisePaths } = {
	label: 'GridBank Enterprise API',
	credentialType: 'gridBankEnterpriseApi',
	pathPrefix: '/external/v1',
	maxPerPage: 80,
	idField: 'id',
	// Per-second rates, bursts of ten seconds' worth on every tier: a drained bucket is full in 10 s.
	rateWindowMs: 10_000,
	findVideosHint: 'Use the Search operation to find valid video ids.',
	hasErrorEnvelope: (body) => isObject(body) && 'detail' in body,
	forbidden: () => ({
		message: 'No active subscription for this operation',
		description:
			'The GridBank Enterprise account has no active subscription (or its lease is suspended or ended) for this operation. Upgrade the plan or renew the lease in the GridBank dashboard.',
		cause: 'configuration-invalid',
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
	paths: {
		list: '/videos/search',
		download: (id) => `/videos/${encodeId(id)}/download`,
		video: (id) => `/videos/${encodeId(id)}`,
		usage: '/usage/me',
		credentialTest: { path: '/usage/me' },
	},
	videoList: { paging: 'page', searchParam: 'q', maxSearchLength: MAX_QUERY_LENGTH },
};
