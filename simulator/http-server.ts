// Plain node:http plumbing for the simulator's three origins: URL and header splitting, listening
// on a loopback port, closing with every connection.
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export function splitUrl(url: string | undefined): [string, string] {
	const u = url ?? '/';
	const q = u.indexOf('?');
	return q < 0 ? [u, ''] : [u.slice(0, q), u.slice(q + 1)];
}

export function flatHeaders(req: IncomingMessage): Record<string, string | undefined> {
	const out: Record<string, string | undefined> = {};
	for (const [k, v] of Object.entries(req.headers)) out[k] = Array.isArray(v) ? v.join(', ') : v;
	return out;
}

export function listen(server: Server, port: number): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve((server.address() as AddressInfo).port);
		});
	});
}

export function closeServer(server: Server): Promise<void> {
	return new Promise((resolve) => {
		server.close(() => resolve());
		server.closeAllConnections();
	});
}
