// A few WAN rows alone, for working on the download path: the node (a fresh process each, as in
// the WAN phase) and, with --aria2c, aria2c, over the WAN link with one uneven profile or none,
// round after round. Prints MB/s, hand-overs and bytes fetched twice; writes no results. After
// `npm run bench` (or tsc -p tsconfig.test.json) has compiled into .cache/ts:
// bash scripts/node24 node .cache/ts/bench/wan-probe.js [MiB] [connections] [equal|slow|stalled|random] [rounds] [--aria2c]
import './env';

import { MiB, round } from './measure';
import { log, mbps, worker } from './phase-helpers';
import { ChildSimulator } from './sim';
import { findAria2c, runAria2c, signedUrl } from './wan-aria2';
import { WAN_LINK } from './wan-phase';
import { UNEVEN_PROFILES } from './wan-uneven';

async function main() {
	const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
	const size = Number(args[0] ?? 1024) * MiB;
	const connections = Number(args[1] ?? 8);
	const profileName = args[2] ?? 'equal';
	const rounds = Number(args[3] ?? 1);
	const profile = UNEVEN_PROFILES.find((p) => p.name === profileName);
	if (profileName !== 'equal' && !profile) throw new Error(`no profile ${profileName}`);
	const aria2 = process.argv.includes('--aria2c') ? await findAria2c(log) : undefined;
	const sim = await ChildSimulator.start({ logLimit: 1_000 });
	try {
		const warmUpKey = await sim.benchVideo(10, 8 * MiB, 'warm-up.mov');
		const videoKey = await sim.benchVideo(11, size, `probe-${size}.mov`);
		const path = new URL(await signedUrl(sim.baseUrl, videoKey)).pathname;
		await sim.call('faults.wanLink', WAN_LINK);
		const measured = async (what: string, run: () => Promise<number>) => {
			if (profile) await sim.call('faults.unevenLink', profile.link());
			await sim.call('clearLog');
			const mbPerSecond = await run();
			const twice = ((await sim.call('storageBytesSent', path)) as number) - size;
			log(`${what}: ${round(mbPerSecond)} MB/s, fetched twice ${round((100 * twice) / size, 3)} %`);
		};
		for (let r = 1; r <= rounds; r++) {
			await measured(`round ${r}, ours ${connections} ${profileName}`, async () => {
				const result = await worker({
					variant: 'ours',
					size,
					baseUrl: sim.baseUrl,
					videoKey,
					warmUpKey,
					connections,
				});
				log(`  handed over ${result.handedOver ?? 0}, ${round(result.seconds, 2)} s`);
				return mbps(result);
			});
			if (aria2?.path)
				await measured(`round ${r}, aria2c ${connections} ${profileName}`, async () => {
					const result = await runAria2c(aria2.path as string, {
						baseUrl: sim.baseUrl,
						videoKey,
						size,
						connections,
						verify: false,
					});
					return size / 1e6 / result.seconds;
				});
		}
	} finally {
		await sim.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
