/** Small undici helpers shared by the contract tests. */
import { request } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';

import { startSimulator, type Simulator } from '../../simulator';

export const UA = 'gridbank-contract-tests/1.0';

export interface Reply {
	status: number;
	headers: IncomingHttpHeaders;
	text: string;
	/** Parsed JSON body, or undefined when the body is not JSON. */
	json: any;
	bytes: Buffer;
}

export interface CallOptions {
	key?: string;
	/** User-Agent to send; null = send none. Default UA. */
	ua?: string | null;
	headers?: Record<string, string>;
}

export async function call(url: string, o: CallOptions = {}): Promise<Reply> {
	const headers: Record<string, string> = { ...o.headers };
	if (o.ua !== null) headers['user-agent'] = o.ua ?? UA;
	if (o.key !== undefined) headers.authorization = `Bearer ${o.key}`;
	const res = await request(url, { headers });
	const bytes = Buffer.from(await res.body.arrayBuffer());
	const text = bytes.toString('utf8');
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: res.statusCode, headers: res.headers, text, json, bytes };
}

/** Storage / signed URL fetch: never sends Authorization. */
export function fetchUrl(url: string, headers: Record<string, string> = {}): Promise<Reply> {
	return call(url, { headers });
}

export function header(r: { headers: IncomingHttpHeaders }, name: string): string | undefined {
	const v = r.headers[name.toLowerCase()];
	return Array.isArray(v) ? v.join(', ') : v;
}

/** The partner envelope code of an error reply. */
export function code(r: Reply): string | undefined {
	return r.json?.detail?.error?.code;
}

export async function pageAll(
	baseUrl: string,
	key: string,
	perPage: number,
): Promise<{ keys: string[]; requests: number; cursors: string[] }> {
	const keys: string[] = [];
	const cursors: string[] = [];
	let cursor: string | undefined;
	let requests = 0;
	for (;;) {
		const q = new URLSearchParams({ per_page: String(perPage) });
		if (cursor) q.set('cursor', cursor);
		const r = await call(`${baseUrl}/partner/v1/content?${q}`, { key });
		requests++;
		if (r.status !== 200) throw new Error(`page ${requests}: ${r.status} ${r.text}`);
		for (const v of r.json.videos) keys.push(v.video_key);
		cursor = r.json.next_cursor || undefined;
		if (!cursor) break;
		cursors.push(cursor);
		if (requests > 1000) throw new Error('paging does not end');
	}
	return { keys, requests, cursors };
}

/** One simulator for a contract test file, reset before each test. */
export function useContractSimulator(): () => Simulator {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await startSimulator();
	});
	afterAll(async () => {
		await sim.close();
	});
	beforeEach(() => sim.reset());
	return () => sim;
}
