/**
 * `npm run simulator`: the GridBank simulator on 127.0.0.1:${PORT:-4010} (storage on PORT+1)
 * until SIGINT/SIGTERM. SIM_VERBOSE=1 prints one line per request (status, method, path;
 * never headers, so never a key).
 */
import { DEMO_ENTERPRISE_KEY, DEMO_PARTNER_KEY, startSimulator } from './index';

async function main(): Promise<void> {
	const port = Number.parseInt(process.env.PORT ?? '4010', 10);
	if (!Number.isInteger(port) || port < 0 || port > 65534)
		throw new Error(`PORT must be a port number, got ${process.env.PORT}`);
	const verbose = process.env.SIM_VERBOSE === '1';
	const sim = await startSimulator({
		port,
		storagePort: port === 0 ? 0 : port + 1,
		logLimit: 10_000,
		onRequest: verbose
			? (r) => console.log(`${r.status} ${r.method} ${r.target} ${r.path}`)
			: undefined,
	});
	console.log('GridBank simulator running');
	console.log(
		`  API base URL:        ${sim.baseUrl}   (Partner: /partner/v1, Enterprise: /external/v1)`,
	);
	console.log(`  Storage URL:         ${sim.storageUrl}`);
	console.log(`  Partner demo key:    ${DEMO_PARTNER_KEY}`);
	console.log(`  Enterprise demo key: ${DEMO_ENTERPRISE_KEY}`);
	console.log('Press Ctrl+C to stop.');
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: stopping`);
		sim.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
	console.error(`gridbank simulator: ${err instanceof Error ? err.message : String(err)}`);
	process.exit(1);
});
