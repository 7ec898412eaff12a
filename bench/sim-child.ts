// The simulator in a child process (forked by sim.ts): on a 2-core machine its CPU and memory
// must not count as ours. The parent drives it over IPC: {id, op, args} → {id, result | error}.
import { startSimulator, type Simulator, type SimulatorOptions } from '../simulator';
import { storageBytesSent } from './bytes-sent';

let sim: Simulator | undefined;

interface Request {
	id: number;
	op: string;
	args: unknown[];
}

/** Simulator methods the benchmark may call by name. */
const METHODS = new Set([
	'setVideoFile',
	'createPartnerAccount',
	'partnerLicences',
	'addEnterpriseVideos',
	'clearLog',
	'reset',
]);

async function handle({ op, args }: Request): Promise<unknown> {
	if (op === 'start') {
		sim = await startSimulator({ port: 0, ...(args[0] as SimulatorOptions) });
		return { baseUrl: sim.baseUrl, storageUrl: sim.storageUrl };
	}
	if (!sim) throw new Error('simulator not started');
	if (op === 'close') {
		await sim.close();
		setImmediate(() => process.exit(0));
		return null;
	}
	if (op === 'apiLog') {
		// Only what the benchmark needs: never headers (they carry keys).
		const [pathPart] = args as [string];
		return sim.log
			.filter((e) => e.target === 'api' && e.path.includes(pathPart))
			.map((e) => ({
				at: e.at,
				status: e.status,
				path: e.path,
				perPage: e.query.per_page,
				page: e.query.page,
			}));
	}
	if (op === 'storageBytesSent') return storageBytesSent(sim.log, args[0] as string);
	// Fault switches the benchmark sets (the WAN link, its uneven profiles).
	if (op === 'faults.okBodyInstead')
		return sim.faults.okBodyInstead(args[0] as string, args[1], args[2] as number);
	if (op === 'faults.failNext')
		return sim.faults.failNext(args[0] as Parameters<Simulator['faults']['failNext']>[0]);
	if (op === 'faults.wanLink')
		return sim.faults.wanLink(args[0] as Parameters<Simulator['faults']['wanLink']>[0]);
	if (op === 'faults.unevenLink')
		return sim.faults.unevenLink(args[0] as Parameters<Simulator['faults']['unevenLink']>[0]);
	if (METHODS.has(op))
		return (sim as unknown as Record<string, (...a: unknown[]) => unknown>)[op](...args);
	throw new Error(`unknown op ${op}`);
}

process.on('message', (message: Request) => {
	handle(message).then(
		(result) => process.send?.({ id: message.id, result: result ?? null }),
		(error: unknown) =>
			process.send?.({
				id: message.id,
				error: error instanceof Error ? error.message : String(error),
			}),
	);
});
process.on('disconnect', () => process.exit(0));
