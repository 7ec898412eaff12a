// Network failures through the real engine, named for what happened: a refused connection is
// retried with the backoff (GridBank restarting) and then named "refused"; a host name that does
// not exist fails at once pointing at the Base URL; an answer that is not HTTP is not called a
// connection failure.
import { createServer } from 'node:net';

import { startSimulator, type Simulator } from '../../../../simulator';
import { runPartner } from '../../../harness/run-gridbank';
import { useSimulator } from '../../../harness/simulator';
import { ASKED_WAIT_CEILING_MS } from '../../../harness/time-bounds';

const sim = useSimulator();

/** A port with nothing listening on it (taken from the OS, then released). */
async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

const list = (maxRetries: number) => ({
	operation: 'listContent',
	limit: 2,
	options: { maxRetries },
});

test('connection refused: retried with the backoff, then "the connection was refused", tried N times', async () => {
	const baseUrl = `http://127.0.0.1:${await freePort()}`;
	const started = Date.now();
	const run = await runPartner(list(2), { baseUrl });
	const elapsed = Date.now() - started;
	expect(run.error?.message).toBe(
		'Could not reach GridBank: the connection was refused (ECONNREFUSED)',
	);
	expect(run.error?.description).toMatch(/tried 3 times/);
	expect(run.error?.description).toMatch(/Base URL/);
	// Two backoffs: at least 250 + 500 ms; generous ceiling for a loaded machine.
	expect(elapsed).toBeGreaterThanOrEqual(700);
	expect(elapsed).toBeLessThan(ASKED_WAIT_CEILING_MS);
});

test('connection refused while GridBank restarts: a retry gets through once it listens again', async () => {
	const port = await freePort();
	let late: Simulator | undefined;
	const starting = new Promise<void>((resolve) =>
		setTimeout(() => {
			void startSimulator({ port }).then((started) => {
				late = started;
				resolve();
			});
		}, 300),
	);
	try {
		const run = await runPartner(list(5), { baseUrl: `http://127.0.0.1:${port}` });
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(2);
		await starting;
		expect(late?.log.filter((entry) => entry.target === 'api')).toHaveLength(1);
	} finally {
		await starting;
		await late?.close();
	}
});

test('a host name that does not exist fails at once, pointing at the Base URL', async () => {
	const run = await runPartner(list(3), { baseUrl: 'https://api2.gridbank-typo.invalid' });
	expect(run.error?.message).toBe(
		'Could not reach GridBank: the host name was not found (ENOTFOUND)',
	);
	// Tried once: no retry, so no backoff was slept.
	expect(run.error?.description).toMatch(/tried 1 time\b/);
	expect(run.error?.description).toMatch(/api2\.gridbank-typo\.invalid/);
	expect(run.error?.description).toMatch(/Base URL/);
});

test('an answer that is not HTTP is not reported as a connection failure', async () => {
	sim().faults.apiNotHttp(1);
	const run = await runPartner(list(0));
	expect(run.error?.message).not.toMatch(/connection/);
	expect(run.error?.message).toMatch(
		/^GridBank's address answered with something that is not HTTP/,
	);
	expect(run.error?.description).toMatch(/Base URL/);
});
