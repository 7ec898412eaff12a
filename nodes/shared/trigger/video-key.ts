// What a trigger remembers of a video's id. GridBank documents ids of 1-50 characters; a server
// answer is not trusted to keep to it, so a longer id is remembered by a fixed-length digest
// instead: the saved state stays bounded whatever the server sends, and the video is still
// recognised on later polls.
import { createHash } from 'node:crypto';

/** GridBank's documented id length. */
export const MAX_ID_LENGTH = 50;
/** A remembered key: an id of up to MAX_ID_LENGTH characters, or `#` + a 43-character digest. */
export const MAX_KEY_LENGTH = MAX_ID_LENGTH;

/** The key a video id is remembered by; '' for no usable id (null, an object, empty). */
export function videoKeyOf(id: unknown): string {
	if (typeof id !== 'string' && typeof id !== 'number') return '';
	const text = String(id);
	if (text.length <= MAX_ID_LENGTH) return text;
	return `#${createHash('sha256').update(text).digest('base64url')}`;
}
