/**
 * Partner list cursors: opaque and tamper-evident (base64url JSON + truncated HMAC).
 * A cursor names the position after the last item it followed, by (purchased_at, video_key),
 * not by offset, so new purchases at the head of the list do not shift later pages.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface CursorPosition {
	/** Account the cursor was issued to. */
	a: string;
	/** purchased_at of the last item of the previous page. */
	p: number;
	/** video_key of the last item of the previous page. */
	k: string;
	/** Number of the page this cursor leads to (2 for the first next_cursor). */
	n: number;
}

function mac(secret: string, payload: string): Buffer {
	return createHmac('sha256', secret).update(payload).digest().subarray(0, 16);
}

export function encodeCursor(secret: string, pos: CursorPosition): string {
	const payload = Buffer.from(JSON.stringify({ v: 1, ...pos })).toString('base64url');
	return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The position, or null when the cursor is malformed, tampered with or not ours. */
export function decodeCursor(secret: string, token: string): CursorPosition | null {
	const m = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
	if (!m) return null;
	const [, payload, sig] = m as unknown as [string, string, string];
	const given = Buffer.from(sig, 'base64url');
	const expected = mac(secret, payload);
	// base64url decoding ignores some trailing bits: compare the re-encoded text too.
	if (
		given.length !== expected.length ||
		!timingSafeEqual(given, expected) ||
		expected.toString('base64url') !== sig
	) {
		return null;
	}
	try {
		const obj = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
			string,
			unknown
		>;
		if (
			obj.v !== 1 ||
			typeof obj.a !== 'string' ||
			typeof obj.p !== 'number' ||
			typeof obj.k !== 'string' ||
			typeof obj.n !== 'number'
		) {
			return null;
		}
		return { a: obj.a, p: obj.p, k: obj.k, n: obj.n };
	} catch {
		return null;
	}
}
