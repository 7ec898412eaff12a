/**
 * failNext({bodyBytes}): an API error body of that many bytes built to make a scrubber work: the
 * request key's secret in pieces one character short of a readable run (11 characters), as
 * itself, hex with separators, percent-encoded, HTML entities, base64, split by spaces and
 * soft breaks, over and over; the whole key once, at the very end.
 */
export function hostileErrorText(authorization: string, bytes: number): string {
	const key = authorization.replace(/^Bearer\s+/i, '');
	const secret = key.includes('.') ? key.slice(key.indexOf('.') + 1) : key;
	const pieces: string[] = [];
	for (let at = 0; at + 11 <= secret.length; at++) {
		const piece = secret.slice(at, at + 11);
		const hex = Buffer.from(piece).toString('hex');
		pieces.push(
			piece,
			(hex.match(/../g) ?? []).join(':'),
			[...Buffer.from(piece)].map((b) => `%${b.toString(16)}`).join(''),
			[...piece].map((c) => `&#${c.charCodeAt(0)};`).join(''),
			Buffer.from(piece).toString('base64'),
			`${piece.slice(0, 5)} ${piece.slice(5)}=\r\n`,
		);
	}
	const chunk = `${pieces.join(' | ')}\n`;
	const tail = ` ${key}`;
	const body = chunk.repeat(Math.max(1, Math.ceil((bytes - tail.length) / chunk.length)));
	return `${body.slice(0, Math.max(0, bytes - tail.length))}${tail}`;
}

/** GridBank's JSON error around a hostile message, at most `bytes` bytes in all (JSON escapes counted). */
export function hostileErrorJson(authorization: string, bytes: number): string {
	const wrap = (message: string) =>
		JSON.stringify({ detail: { error: { code: 'internal_error', message } } });
	let size = bytes;
	let text = wrap(hostileErrorText(authorization, size));
	for (let i = 0; i < 5 && Buffer.byteLength(text) > bytes; i++) {
		size -= Buffer.byteLength(text) - bytes + 16;
		text = wrap(hostileErrorText(authorization, size));
	}
	return text;
}
