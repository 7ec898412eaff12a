/** Small undici helpers shared by the contract tests. */
import { request } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';

import { DEMO_PARTNER_KEY, startSimulator, type Simulator } from '../../simulator';

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

/**
 * The signed storage URL the Partner API gives for a video (GET /partner/v1/videos/{key}/download,
 * the demo member's key unless `o.key`); any answer but 200 fails with its status and body.
 */
export async function signedUrlOf(
	baseUrl: string,
	videoKey: string,
	o: CallOptions = {},
): Promise<string> {
	const r = await call(`${baseUrl}/partner/v1/videos/${encodeURIComponent(videoKey)}/download`, {
		key: DEMO_PARTNER_KEY,
		...o,
	});
	if (r.status !== 200)
		throw new Error(`download URL of ${videoKey}: HTTP ${r.status} ${r.text.slice(0, 200)}`);
	return r.json.url as string;
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

/**
 * The usual contract-test simulator: started once for the file, reset before each test, with
 * the demo Partner key's first licensed video (`videoKey`), served as a file of `fileSize`
 * bytes when given.
 */
export function contractSimulator(fileSize?: number) {
	const state = {} as { sim: Simulator; videoKey: string };
	beforeAll(async () => {
		state.sim = await startSimulator();
	});
	afterAll(async () => {
		await state.sim.close();
	});
	beforeEach(() => {
		state.sim.reset();
		state.videoKey = state.sim.partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
		if (fileSize !== undefined) state.sim.setVideoFile(state.videoKey, { size: fileSize });
	});
	return state;
}

/** A signed storage URL of a Partner video, issued for the demo key. */
export async function partnerSignedUrl(sim: Simulator, key: string): Promise<string> {
	const r = await call(`${sim.baseUrl}/partner/v1/videos/${encodeURIComponent(key)}/download`, {
		key: DEMO_PARTNER_KEY,
	});
	if (r.status !== 200) throw new Error(`download URL: HTTP ${r.status}`);
	return r.json.url as string;
}
