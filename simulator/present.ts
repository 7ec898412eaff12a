/** Response shapes: Partner list items and Enterprise video metadata, with the nullable / extra-field faults. */
import type { CatalogueVideo } from './catalogue';
import type { FaultState } from './faults';

export function partnerItem(
	v: CatalogueVideo,
	purchasedAt: number,
	faults: FaultState,
): Record<string, unknown> {
	const allNull = faults.nullable;
	const item: Record<string, unknown> = {
		video_key: v.id,
		title: allNull ? null : v.title,
		duration_seconds: allNull ? null : v.duration,
		purchased_at: allNull ? null : faults.purchaseTimesInMs ? purchasedAt * 1000 : purchasedAt,
		preview_url: allNull ? null : v.url,
		thumbnail_url: allNull ? null : v.thumbnail,
		creator: {
			id: v.creatorId,
			username: allNull ? null : v.creator.username,
			name: allNull ? null : v.creator.name,
			...(faults.extra ? { verified: v.index % 2 === 0, follower_count: 1000 + v.index } : {}),
		},
	};
	if (faults.extra) {
		item.aspect_ratio = v.width && v.height ? `${v.width}:${v.height}` : null;
		item.licence_type = 'standard';
		item._links = { self: `/partner/v1/videos/${encodeURIComponent(v.id)}` };
	}
	return item;
}

export function enterpriseVideo(v: CatalogueVideo, faults: FaultState): Record<string, unknown> {
	const allNull = faults.nullable;
	const out: Record<string, unknown> = {
		id: v.id,
		title: allNull ? null : v.title,
		description: allNull ? null : v.description,
		duration: allNull ? null : v.duration,
		width: allNull ? null : v.width,
		height: allNull ? null : v.height,
		keywords: allNull ? null : v.keywords ? [...v.keywords] : null,
		url: allNull ? null : v.url,
		thumbnail: allNull ? null : v.thumbnail,
		creator: {
			username: v.creator.username,
			name: allNull ? null : v.creator.name,
			bio: allNull ? null : v.creator.bio,
			profile_image: allNull ? null : v.creator.profile_image,
			...(faults.extra ? { verified: v.index % 2 === 0 } : {}),
		},
		location: allNull
			? null
			: v.location
				? { ...v.location, ...(faults.extra ? { lat: 0, lng: 0 } : {}) }
				: null,
	};
	if (faults.extra) {
		out.is_editorial = false;
		out.frame_rate = 29.97;
		out._score = v.popularity;
	}
	return out;
}
