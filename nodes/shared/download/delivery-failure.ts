// Failures that belong to one video's file, not to the account or the network: storage has no
// master for it, storage refuses its link even after a fresh one, or the file is too big for
// n8n's binary data mode. The trigger emits such a video once with `downloadError` instead of
// failing (and so repeating) every later poll. Marked where they are raised, never guessed
// from a message.
const perVideo = new WeakSet<object>();

export function markPerVideo<E extends Error>(error: E): E {
	perVideo.add(error);
	return error;
}

export const isPerVideoFailure = (error: unknown): error is Error =>
	typeof error === 'object' && error !== null && perVideo.has(error);
