// The Enterprise API as data for the shared transport: its paths, paging, video fields and what
// its 403 means.
import { type ApiProfile, isObject } from '../../shared/transport/api-profile';

export const ENTERPRISE: ApiProfile = {
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
	videoList: { path: '/videos/search', paging: 'page', searchParam: 'q', maxSearchLength: 200 },
};
