/**
 * Connections that do not all run at one speed (the `unevenLink` switch, on top of `wanLink`):
 * real storage and CDN connections differ, and one slow or stalled connection can hold a whole
 * parallel download. Each new storage connection (TCP socket) is given its share of the
 * connection cap and, for one of them, a stall, in the order the connections open.
 */
import { mulberry32, type Rng } from './prng';

export interface UnevenLinkOptions {
	/** Every `every`-th new connection, from the `first`-th (1 = the next; default `every`), runs at `factor` of the cap. */
	slow?: { every: number; factor: number; first?: number };
	/** The `connection`-th new connection (1 = the next) sends `afterBytes`, then nothing for `ms`, then the rest. */
	stall?: { connection: number; afterBytes: number; ms: number };
	/** Every new connection runs at a factor of the cap drawn between `min` and `max` (seeded: the same on every run). */
	random?: { seed: number; min: number; max: number };
}

/** What one connection gets. */
export interface ConnectionShape {
	factor: number;
	stall?: { afterBytes: number; ms: number };
}

const positive = (n: number, name: string) => {
	if (!(n > 0) || !Number.isFinite(n)) throw new Error(`unevenLink: ${name} must be > 0`);
};

export class UnevenLink {
	private opened = 0;
	private readonly rng: Rng | undefined;

	constructor(readonly options: UnevenLinkOptions) {
		const { slow, stall, random } = options;
		if (slow) {
			if (!Number.isInteger(slow.every) || slow.every < 1)
				throw new Error('unevenLink: slow.every must be a positive integer');
			positive(slow.factor, 'slow.factor');
		}
		if (stall) {
			if (!Number.isInteger(stall.connection) || stall.connection < 1)
				throw new Error('unevenLink: stall.connection must be a positive integer');
			if (!(stall.afterBytes >= 0)) throw new Error('unevenLink: stall.afterBytes must be >= 0');
			positive(stall.ms, 'stall.ms');
		}
		if (random) {
			positive(random.min, 'random.min');
			if (!(random.max >= random.min)) throw new Error('unevenLink: random.max must be >= min');
		}
		this.rng = random ? mulberry32(random.seed) : undefined;
	}

	/** The shape of the next connection that opens. */
	next(): ConnectionShape {
		const n = ++this.opened;
		const { slow, stall, random } = this.options;
		let factor = 1;
		if (random && this.rng) factor = random.min + this.rng() * (random.max - random.min);
		const first = slow?.first ?? slow?.every ?? 0;
		if (slow && n >= first && (n - first) % slow.every === 0) factor *= slow.factor;
		return {
			factor,
			...(stall && stall.connection === n
				? { stall: { afterBytes: stall.afterBytes, ms: stall.ms } }
				: {}),
		};
	}
}
