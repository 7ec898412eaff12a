/** Videos added after seeding: hidden ones behind Partner licences, and test-added searchable ones. */
import { defaultFile, indexWords, type CatalogueVideo } from './catalogue';
import type { Rng } from './prng';
import type { EnterpriseVideo } from './types';

/** A video outside search (a licence beyond the catalogue), its metadata copied from `template`. */
export function hiddenVideo(
	template: CatalogueVideo,
	vid: string,
	index: number,
	rng: Rng,
): CatalogueVideo {
	const enc = encodeURIComponent(vid);
	return {
		...template,
		id: vid,
		index,
		hidden: true,
		url: `https://cdn.gridbank.io/previews/${enc}.mp4`,
		thumbnail: `https://cdn.gridbank.io/thumbnails/${enc}.jpg`,
		file: defaultFile(index, template.title, vid, rng),
	};
}

/** A searchable video from a test's partial description: fields left out take plain defaults. */
export function addedVideo(
	p: Partial<EnterpriseVideo>,
	o: { id: string; n: number; index: number; now: () => number; rng: Rng },
): CatalogueVideo {
	const { id, n, index } = o;
	const enc = encodeURIComponent(id);
	const title = p.title === undefined ? `Added clip ${n}` : p.title;
	const video: CatalogueVideo = {
		id,
		title,
		description: p.description === undefined ? null : p.description,
		duration: p.duration === undefined ? 30 : p.duration,
		width: p.width === undefined ? 1920 : p.width,
		height: p.height === undefined ? 1080 : p.height,
		url: p.url === undefined ? `https://cdn.gridbank.io/previews/${enc}.mp4` : p.url,
		thumbnail:
			p.thumbnail === undefined ? `https://cdn.gridbank.io/thumbnails/${enc}.jpg` : p.thumbnail,
		creator: p.creator ?? {
			username: 'simulator',
			name: 'Simulator Creator',
			bio: null,
			profile_image: null,
		},
		location: p.location === undefined ? null : p.location,
		keywords: p.keywords === undefined ? [] : p.keywords,
		theme: p.theme === undefined ? null : p.theme,
		popularity: p.popularity ?? 0,
		publishedAt: p.publishedAt ?? o.now(),
		index,
		creatorId: 'cr_sim',
		hidden: false,
		file: defaultFile(index, title, id, o.rng),
		titleWords: new Set(),
		keywordWords: new Set(),
	};
	Object.assign(video, indexWords(video));
	return video;
}
