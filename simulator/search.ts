/**
 * Enterprise search: every word of `q` must occur (case-insensitive) among the words of the
 * title or the keywords. Sorts are deterministic:
 *  - relevant: score (3 per word found in the title, 1 per word found in the keywords), then popularity, then id;
 *  - popular: popularity, then id;  - recent: publishedAt (newest first), then id; with
 *    World.tieSeed set, publishedAt's second, then an order of the seed's own.
 */
import { createHash } from 'node:crypto';

import { words, type CatalogueVideo } from './catalogue';
import type { World } from './world';

export type SortOrder = 'relevant' | 'popular' | 'recent';

export interface SearchParams {
	q: string;
	sort: SortOrder;
	durationMin?: number;
	durationMax?: number;
	theme?: string;
}

const caches = new WeakMap<World, Map<string, CatalogueVideo[]>>();

export function queryWords(q: string): string[] {
	return words(q);
}

function byId(a: CatalogueVideo, b: CatalogueVideo): number {
	return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Same-second videos: by id, or (seed ≠ 0) in an order of the seed's own. */
function tieOrder(seed: number): (a: CatalogueVideo, b: CatalogueVideo) => number {
	if (!seed) return byId;
	const rank = (v: CatalogueVideo) => createHash('sha256').update(`${seed}:${v.id}`).digest('hex');
	return (a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0);
}

export function search(world: World, p: SearchParams): CatalogueVideo[] {
	let cache = caches.get(world);
	if (!cache) caches.set(world, (cache = new Map()));
	const cacheKey = JSON.stringify([
		world.catalogueVersion,
		p.q.toLowerCase(),
		p.sort,
		p.durationMin,
		p.durationMax,
		p.theme?.toLowerCase(),
		world.tieSeed,
	]);
	const hit = cache.get(cacheKey);
	if (hit) return hit;

	const terms = [...new Set(queryWords(p.q))];
	const theme = p.theme?.trim().toLowerCase();
	const scored: Array<{ v: CatalogueVideo; score: number }> = [];
	for (const v of world.searchable) {
		let score = 0;
		let all = true;
		for (const t of terms) {
			const inTitle = v.titleWords.has(t);
			const inKeywords = v.keywordWords.has(t);
			if (!inTitle && !inKeywords) {
				all = false;
				break;
			}
			score += (inTitle ? 3 : 0) + (inKeywords ? 1 : 0);
		}
		if (!all) continue;
		if (p.durationMin !== undefined && (v.duration === null || v.duration < p.durationMin))
			continue;
		if (p.durationMax !== undefined && (v.duration === null || v.duration > p.durationMax))
			continue;
		if (theme !== undefined && theme !== '' && (v.theme ?? '').toLowerCase() !== theme) continue;
		scored.push({ v, score });
	}
	if (p.sort === 'relevant') {
		scored.sort((a, b) => b.score - a.score || b.v.popularity - a.v.popularity || byId(a.v, b.v));
	} else if (p.sort === 'popular') {
		scored.sort((a, b) => b.v.popularity - a.v.popularity || byId(a.v, b.v));
	} else {
		// Times as the API states them (seconds) when ties are reordered; else to the millisecond.
		const seed = world.tieSeed;
		const time = (v: CatalogueVideo) => (seed ? Math.floor(v.publishedAt / 1000) : v.publishedAt);
		const tie = tieOrder(seed);
		scored.sort((a, b) => time(b.v) - time(a.v) || tie(a.v, b.v));
	}
	const result = scored.map((s) => s.v);
	if (cache.size >= 64) cache.delete(cache.keys().next().value as string);
	cache.set(cacheKey, result);
	return result;
}
