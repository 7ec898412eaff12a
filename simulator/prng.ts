/** Small deterministic PRNG (mulberry32) so the catalogue is identical on every run. */

export type Rng = () => number;

export function mulberry32(seed: number): Rng {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Integer in [min, max] inclusive. */
export function intBetween(rng: Rng, min: number, max: number): number {
	return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, list: readonly T[]): T {
	return list[Math.floor(rng() * list.length)] as T;
}

/** `n` distinct elements of `list`, in random order. */
export function pickDistinct<T>(rng: Rng, list: readonly T[], n: number): T[] {
	const copy = list.slice();
	const out: T[] = [];
	for (let i = 0; i < n && copy.length > 0; i++) {
		const j = Math.floor(rng() * copy.length);
		out.push(copy[j] as T);
		copy[j] = copy[copy.length - 1] as T;
		copy.pop();
	}
	return out;
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function base62(rng: Rng, length: number): string {
	let s = '';
	for (let i = 0; i < length; i++) s += BASE62[Math.floor(rng() * 62)];
	return s;
}
