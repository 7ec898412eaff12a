// Test hooks that change the Enterprise collection after the fact, for the Enterprise Trigger's
// tests: a video republished (it moves up a `recent` search), and videos withdrawn from search
// and restored (they drop out of every result and come back at their old place). Additions
// themselves are addEnterpriseVideos (each video gets its publishedAt, default now).
import type { World } from './world';

/** Withdrawn videos of each world, by id, so a restore puts back the very same video. */
const withdrawn = new WeakMap<World, Map<string, World['searchable'][number]>>();

function withdrawnOf(world: World) {
	let map = withdrawn.get(world);
	if (!map) withdrawn.set(world, (map = new Map()));
	return map;
}

/** `id` gets `publishedAt` (ms) as its new time: a `recent` search now orders it by that time. */
export function republishVideo(world: World, id: string, publishedAt: number): void {
	const video = world.searchable.find((v) => v.id === id) ?? withdrawnOf(world).get(id);
	if (!video) throw new Error(`unknown searchable video ${JSON.stringify(id)}`);
	video.publishedAt = publishedAt;
	world.catalogueVersion++;
}

/** The videos vanish from every search (metadata and downloads still answer). */
export function withdrawVideos(world: World, ids: string[]): void {
	const map = withdrawnOf(world);
	for (const id of ids) {
		const index = world.searchable.findIndex((v) => v.id === id);
		if (index < 0) throw new Error(`unknown searchable video ${JSON.stringify(id)}`);
		map.set(id, world.searchable[index]);
		world.searchable.splice(index, 1);
	}
	world.catalogueVersion++;
}

/** Withdrawn videos come back to search with the time they had. */
export function restoreVideos(world: World, ids: string[]): void {
	const map = withdrawnOf(world);
	for (const id of ids) {
		const video = map.get(id);
		if (!video) throw new Error(`${JSON.stringify(id)} was not withdrawn`);
		map.delete(id);
		world.searchable.push(video);
	}
	world.catalogueVersion++;
}
