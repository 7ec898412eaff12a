// The WAN phase's uneven links (the simulator's `faults.unevenLink`, on top of the WAN link):
// one connection of eight at a tenth of the speed, one stalled for 10 s mid-segment, and speeds
// drawn at random (seeded). Connections (TCP sockets) are counted as they open, over the whole
// transfer process: a node worker's 8 MiB warm-up opens the first, so the profiles do not rely
// on the first one (`first: 2`, `connection: 3`); aria2c's first is its opening request. Every
// eighth connection from the second is slow: one of eight for a client that keeps its sockets
// (aria2c), an eighth of the requests for one that opens more.
import type { UnevenLinkOptions } from '../simulator/uneven-link';
import { MiB } from './measure';

export interface UnevenProfile {
	name: 'slow' | 'stalled' | 'random';
	/** The unevenLink switch, set afresh before each transfer (connections count from then). */
	link(): UnevenLinkOptions;
}

export const UNEVEN_PROFILES: UnevenProfile[] = [
	{ name: 'slow', link: () => ({ slow: { every: 8, first: 2, factor: 0.1 } }) },
	{
		name: 'stalled',
		// 1.5 MiB into the third connection's first response: inside a segment for both clients
		// (the node's first responses are whole MiB, at least 2 from the third on; aria2c's are
		// a share of the file), whether or not the warm-up's connection is reused.
		link: () => ({ stall: { connection: 3, afterBytes: 1.5 * MiB, ms: 10_000 } }),
	},
	{ name: 'random', link: () => ({ random: { seed: 36, min: 0.1, max: 1 } }) },
];
