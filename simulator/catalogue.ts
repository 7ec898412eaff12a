/**
 * The seeded video catalogue shared by both APIs (a Partner `video_key` and an Enterprise
 * `video_id` name the same video). Generated from a fixed seed: same ids, titles and order
 * on every run. Ids are 1-50 chars of [a-zA-Z0-9/_-]; a few contain `/`, `_` and `-`,
 * one has exactly 50 chars and one a single char.
 */
import { base62, intBetween, mulberry32, pick, pickDistinct, type Rng } from './prng';
import type { EnterpriseCreator, EnterpriseVideo, VideoFile } from './types';
import {
	ADJECTIVES,
	EXTRA_KEYWORDS,
	FIRST_NAMES,
	LAST_NAMES,
	LOCATIONS,
	RESOLUTIONS,
	SETTINGS,
	SUBJECTS,
	THEMES,
} from './words';

export const CATALOGUE_SEED = 0x9b1d_2025;
export const ID_PATTERN = /^[a-zA-Z0-9/_-]+$/;
const CDN = 'https://cdn.gridbank.io';

export interface CatalogueVideo extends EnterpriseVideo {
	index: number;
	/** Partner `creator.id`. */
	creatorId: string;
	/** Not returned by Enterprise search (videos created only to be licensed on the Partner API). */
	hidden: boolean;
	/** Default file; setVideoFile overrides live in the world state. */
	file: VideoFile;
	/** Lower-case words of the title and of the keywords, for search. */
	titleWords: Set<string>;
	keywordWords: Set<string>;
}

export interface SeedCreator extends EnterpriseCreator {
	id: string;
}

const THEME_OF: Record<string, (typeof THEMES)[number]> = {
	forest: 'nature',
	mountain: 'nature',
	river: 'nature',
	desert: 'nature',
	meadow: 'nature',
	glacier: 'nature',
	volcano: 'nature',
	canyon: 'nature',
	lake: 'nature',
	waterfall: 'nature',
	ocean: 'nature',
	city: 'city',
	skyline: 'city',
	street: 'city',
	bridge: 'city',
	harbor: 'city',
	market: 'city',
	beach: 'travel',
	island: 'travel',
	train: 'travel',
	airplane: 'travel',
	lighthouse: 'travel',
	vineyard: 'travel',
	horse: 'animals',
	eagle: 'animals',
	dolphin: 'animals',
	coffee: 'food',
	kitchen: 'food',
	chef: 'food',
	farmer: 'food',
	surfer: 'sports',
	runner: 'sports',
	bicycle: 'sports',
	dancer: 'people',
	musician: 'people',
	office: 'business',
	laboratory: 'technology',
	drone: 'technology',
	robot: 'technology',
	satellite: 'technology',
};

export function words(text: string | null | undefined): string[] {
	if (!text) return [];
	return text
		.toLowerCase()
		.split(/[^\p{L}\p{N}]+/u)
		.filter((w) => w.length > 0);
}

export function indexWords(v: { title: string | null; keywords: string[] | null }): {
	titleWords: Set<string>;
	keywordWords: Set<string>;
} {
	return {
		titleWords: new Set(words(v.title)),
		keywordWords: new Set((v.keywords ?? []).flatMap((k) => words(k))),
	};
}

function slug(s: string): string {
	return s
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
}

function capitalise(s: string): string {
	return s.charAt(0).toUpperCase() + s.slice(1);
}

function makeCreators(rng: Rng, n: number): SeedCreator[] {
	const out: SeedCreator[] = [];
	for (let i = 0; i < n; i++) {
		const first = pick(rng, FIRST_NAMES);
		const last = pick(rng, LAST_NAMES);
		const username = `${first}${last}${i}`.toLowerCase();
		out.push({
			id: `cr_${String(1000 + i)}`,
			username,
			name: i % 23 === 7 ? null : `${first} ${last}`,
			bio:
				i % 11 === 4
					? null
					: `${first} films ${pick(rng, EXTRA_KEYWORDS)} and ${pick(rng, EXTRA_KEYWORDS)} stories.`,
			profile_image: i % 13 === 5 ? null : `${CDN}/creators/${username}.jpg`,
		});
	}
	return out;
}

function specialId(i: number, subject: string): string | undefined {
	if (i === 1) return 'ocean/aerial_shot-0001';
	if (i === 3) return 'stock-footage_extended-collection/master-4k-000003'; // exactly 50 chars
	if (i === 4) return 'Q';
	if (i === 6) return 'city_night-timelapse_4k';
	if (i % 97 === 50) return `collection/${subject}/${i}`;
	return undefined;
}

export function defaultFile(index: number, title: string | null, id: string, rng: Rng): VideoFile {
	const mp4 = index % 10 === 3;
	const base = slug(title ?? '') || slug(id) || 'video';
	return {
		size: intBetween(rng, 1_000_000, 4_000_000),
		contentType: mp4 ? 'video/mp4' : 'video/quicktime',
		fileName: `${base}-${index}.${mp4 ? 'mp4' : 'mov'}`,
		disposition: 'filename',
		rangeSupport: true,
	};
}

export interface Catalogue {
	videos: CatalogueVideo[];
	creators: SeedCreator[];
}

const cache = new Map<number, Catalogue>();

/** The seeded catalogue of `size` videos (cached; callers must not mutate it). */
export function seededCatalogue(size: number): Catalogue {
	const hit = cache.get(size);
	if (hit) return hit;
	const rng = mulberry32(CATALOGUE_SEED);
	const creators = makeCreators(rng, 150);
	const seen = new Set<string>();
	const videos: CatalogueVideo[] = [];
	const publishedFrom = Date.UTC(2019, 0, 1);
	const publishedTo = Date.UTC(2024, 11, 1);
	for (let i = 0; i < size; i++) {
		const adjective = pick(rng, ADJECTIVES);
		const subject = pick(rng, SUBJECTS);
		const setting = pick(rng, SETTINGS);
		let id = specialId(i, subject) ?? `gbv-${base62(rng, 8)}`;
		while (seen.has(id)) id = `gbv-${base62(rng, 9)}`;
		seen.add(id);
		const title = capitalise(`${adjective} ${subject} ${setting}`);
		const keywords = [
			subject,
			adjective,
			...pickDistinct(rng, EXTRA_KEYWORDS, intBetween(rng, 2, 4)),
			'footage',
		];
		const creator = pick(rng, creators);
		const loc = pick(rng, LOCATIONS);
		const [width, height] = pick(rng, RESOLUTIONS);
		const noDuration = i % 89 === 44;
		const duration = noDuration ? null : Math.round((5 + rng() * 115) * 100) / 100;
		const theme = rng() < 0.05 ? 'abstract' : (THEME_OF[subject] ?? 'abstract');
		const enc = encodeURIComponent(id);
		const { id: creatorId, ...creatorFields } = creator;
		const video: CatalogueVideo = {
			id,
			title,
			description:
				i % 71 === 5
					? null
					: `${title}. Filmed in ${loc.city}${creator.name ? ` by ${creator.name}` : ''}.`,
			duration,
			width: noDuration ? null : width,
			height: noDuration ? null : height,
			url: `${CDN}/previews/${enc}.mp4`,
			thumbnail: i % 67 === 31 ? null : `${CDN}/thumbnails/${enc}.jpg`,
			creator: creatorFields,
			location:
				i % 73 === 11
					? null
					: i % 61 === 29
						? { city: null, region: null, country: loc.country }
						: { ...loc },
			keywords,
			theme,
			popularity: Math.floor(rng() ** 3 * 100_000),
			publishedAt:
				publishedFrom + Math.floor((rng() * (publishedTo - publishedFrom)) / 1000) * 1000,
			index: i,
			creatorId,
			hidden: false,
			file: defaultFile(i, title, id, rng),
			titleWords: new Set(),
			keywordWords: new Set(),
		};
		Object.assign(video, indexWords(video));
		videos.push(video);
	}
	const catalogue = { videos, creators };
	cache.set(size, catalogue);
	return catalogue;
}
