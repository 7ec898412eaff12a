/**
 * The oversizeApiBody fault: a 200 API answer whose JSON carries a leading "padding" field of
 * `bytes` bytes (Infinity: it never ends), sent chunked with back-pressure, so a client that
 * stops reading stops the server too. The log entry counts what was written (`bytesSent`).
 */
import type { ServerResponse } from 'node:http';

import type { ApiResponse } from './errors';
import type { LoggedRequest } from './types';

const CHUNK = Buffer.alloc(64 * 1024, 'x');

export function sendOversize(
	res: ServerResponse,
	r: ApiResponse,
	bytes: number,
	entry: LoggedRequest,
): void {
	const json = r.raw ? r.raw.text : JSON.stringify(r.body ?? null);
	// The answer's own fields after the padding: {"padding":"xx…","videos":[…]}.
	const rest = json.startsWith('{') && json !== '{}' ? `,${json.slice(1)}` : '}';
	entry.status = r.status;
	entry.bytesSent = 0;
	res.writeHead(r.status, { 'Content-Type': 'application/json', ...r.headers });
	const write = (chunk: Buffer): boolean => {
		entry.bytesSent = (entry.bytesSent ?? 0) + chunk.length;
		return res.write(chunk);
	};
	write(Buffer.from('{"padding":"'));
	let padded = 0;
	const pump = (): void => {
		while (!res.destroyed && padded < bytes) {
			const n = Math.min(CHUNK.length, bytes - padded);
			padded += n;
			if (!write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) {
				res.once('drain', pump);
				return;
			}
		}
		if (res.destroyed) return;
		write(Buffer.from(`"${rest}`));
		res.end();
	};
	pump();
}
