// Phase 5 of npm run bench: downloads over a WAN-like link. The simulator caps each TCP
// connection (25 MB/s), adds a 40 ms round trip and caps the whole link (100 MB/s), as object
// storage reached over the internet does. In interleaved rounds (issue 36 point 6): n8n alone
// (one stream through n8n's helpers) and raw undici with one stream, then per connection count
// the node, raw undici with as many ranged parts (the most the link gives) and aria2c
// (wan-aria2.ts), then the uneven links (wan-uneven.ts); after the rounds, the node and aria2c
// with one core kept busy (wan-loaded.ts). The summary and targets: wan-report.ts; the markdown: wan-render.ts.
import os from 'node:os';

import type { WorkerInput, WorkerResult } from './download-worker';
import type { ChildSimulator } from './sim';
import { GiB, MiB, round } from './measure';
import { DEFAULT_CONNECTIONS } from '../nodes/shared/read-parameters';
import { findAria2c, runAria2c, signedUrl, type Aria2Result } from './wan-aria2';
import { UNEVEN_PROFILES } from './wan-uneven';
import { BUSY, whileBusy } from './wan-loaded';
import {
	wanTargets,
	type WanEntry,
	type WanRound,
	type WanRun,
	type WanTarget,
} from './wan-report';

export type { WanEntry } from './wan-report';

export const WAN_LINK = { connectionBytesPerSecond: 25e6, rttMs: 40, linkBytesPerSecond: 100e6 };
export const WAN_CONNECTIONS = [1, 2, 4, 8, 16];
/** Where aria2c runs beside the node (issue 36 point 1). */
export const ARIA2_CONNECTIONS = [1, 4, 8, 16];
const MB = 1e6;

interface WanResults {
	wan?: WanEntry[];
	targets: WanTarget[];
}

const load1 = () => round(os.loadavg()[0] as number, 2);

const fromWorker = (r: WorkerResult): Omit<WanRun, 'load'> => ({
	mbPerSecond: round(r.size / MB / r.seconds),
	seconds: round(r.seconds, 2),
	cpuSeconds: round((r.cpuUserMs + r.cpuSystemMs) / 1000, 2),
	cpuSecondsPerGiB: round(((r.cpuUserMs + r.cpuSystemMs) / 1000) * (GiB / r.size), 2),
	rssGrowthMiB: round(r.rssGrowthBytes / MiB),
	...(r.handedOver === undefined ? {} : { handedOver: r.handedOver }),
});
const fromAria2 = (r: Aria2Result, size: number): Omit<WanRun, 'load'> => ({
	mbPerSecond: round(size / MB / r.seconds),
	seconds: round(r.seconds, 2),
	cpuSeconds: round((r.cpuUserMs + r.cpuSystemMs) / 1000, 2),
	cpuSecondsPerGiB: round(((r.cpuUserMs + r.cpuSystemMs) / 1000) * (GiB / size), 2),
	...(r.peakRssBytes === undefined ? {} : { peakRssMiB: round(r.peakRssBytes / MiB) }),
});

export async function benchWan(
	results: WanResults,
	sim: ChildSimulator,
	sizes: number[],
	roundsFor: (size: number) => number,
	worker: (input: WorkerInput) => Promise<WorkerResult>,
	log: (message: string) => void,
): Promise<void> {
	const warmUpKey = await sim.benchVideo(10, 8 * MiB, 'warm-up.mov');
	const aria2 = await findAria2c(log);
	log(aria2.path ? `WAN: ${aria2.version} (${aria2.path})` : `WAN: ${aria2.note}`);
	await sim.call('faults.wanLink', WAN_LINK);
	results.wan = [];
	try {
		for (const [index, size] of sizes.entries()) {
			const videoKey = await sim.benchVideo(11 + index, size, `wan-${size}.mov`);
			const label = size >= GiB ? `${size / GiB} GiB` : `${size / MiB} MiB`;
			const base = { size, baseUrl: sim.baseUrl, videoKey, warmUpKey };
			const path = new URL(await signedUrl(sim.baseUrl, videoKey)).pathname;
			const timed = async (
				what: string,
				run: () => Promise<Omit<WanRun, 'load'>>,
			): Promise<WanRun> => {
				const before = load1();
				const measured = { ...(await run()), load: [before, load1()] as [number, number] };
				log(
					`WAN ${label}, ${what}: ${measured.mbPerSecond} MB/s, ${measured.cpuSecondsPerGiB} CPU-s/GiB (load ${before}→${measured.load[1]})`,
				);
				return measured;
			};
			const node = (input: Partial<WorkerInput>) => async () =>
				fromWorker(await worker({ ...base, variant: 'ours', ...input }));
			const aria2c = (connections: number) => async () =>
				fromAria2(
					await runAria2c(aria2.path as string, {
						baseUrl: sim.baseUrl,
						videoKey,
						size,
						connections,
						verify: true,
					}),
					size,
				);
			/** Bytes storage sent for the file beyond its size, during `run`. */
			const counted = async (what: string, run: () => Promise<Omit<WanRun, 'load'>>) => {
				await sim.call('clearLog');
				const measured = await timed(what, run);
				const sent = (await sim.call('storageBytesSent', path)) as number;
				return { ...measured, bytesTwice: Math.max(0, sent - size) };
			};
			const entry: WanEntry = {
				size,
				label,
				link: WAN_LINK,
				aria2c: aria2.path ? { version: aria2.version } : { note: aria2.note },
				rounds: [],
			};
			const rounds = roundsFor(size);
			for (let r = 1; r <= rounds; r++) {
				log(`WAN ${label}: round ${r} of ${rounds}`);
				const wanRound: WanRound = {
					n8n: await timed('n8n alone', node({ variant: 'n8n' })),
					raw: await timed('raw one stream', node({ variant: 'raw' })),
					byConnections: [],
					uneven: [],
				};
				for (const connections of WAN_CONNECTIONS) {
					const ours = await timed(`ours ${connections}`, node({ connections }));
					const rawRanged = await timed(
						`raw ${connections} ranged parts`,
						node({ variant: 'raw-ranged', connections }),
					);
					const withAria2 = aria2.path && ARIA2_CONNECTIONS.includes(connections);
					const aria = withAria2
						? await timed(`aria2c ${connections}`, aria2c(connections))
						: undefined;
					// n8n's own floor for ranged parts, where CPU is compared (issue 36 point 3).
					const n8nRanged =
						connections >= 4
							? await timed(
									`n8n's helpers ${connections} ranged parts`,
									node({ variant: 'n8n-ranged', connections }),
								)
							: undefined;
					wanRound.byConnections.push({
						connections,
						ours,
						rawRanged,
						...(aria ? { aria2c: aria } : {}),
						...(n8nRanged ? { n8nRanged } : {}),
					});
				}
				for (const profile of UNEVEN_PROFILES) {
					await sim.call('faults.unevenLink', profile.link());
					try {
						const ours = await counted(
							`ours ${profile.name}`,
							node({ connections: DEFAULT_CONNECTIONS }),
						);
						// The profile starts afresh: aria2c's connections are counted from its first.
						await sim.call('faults.unevenLink', profile.link());
						const aria = aria2.path
							? await counted(`aria2c ${profile.name}`, aria2c(DEFAULT_CONNECTIONS))
							: undefined;
						wanRound.uneven.push({
							profile: profile.name,
							ours,
							...(aria ? { aria2c: aria } : {}),
						});
					} finally {
						await sim.call('faults.unevenLink', null);
					}
				}
				entry.rounds.push(wanRound);
			}
			entry.loaded = {
				busy: BUSY,
				rounds: await whileBusy(async () => {
					const loaded: NonNullable<WanEntry['loaded']>['rounds'] = [];
					for (let r = 1; r <= rounds; r++) {
						const ours = await timed(
							`loaded, ours ${DEFAULT_CONNECTIONS}`,
							node({ connections: DEFAULT_CONNECTIONS }),
						);
						const aria = aria2.path
							? await timed(`loaded, aria2c ${DEFAULT_CONNECTIONS}`, aria2c(DEFAULT_CONNECTIONS))
							: undefined;
						loaded.push({ ours, ...(aria ? { aria2c: aria } : {}) });
					}
					return loaded;
				}),
			};
			results.wan.push(entry);
			results.targets.push(...wanTargets(entry));
		}
	} finally {
		await sim.call('faults.wanLink', null);
	}
}
