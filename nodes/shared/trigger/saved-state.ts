// The one seen-state both triggers keep in n8n's static data of the node: the shape every
// trigger's state has (what it remembers, what waits, what keeps failing), how the shared parts
// are read back, bounded, whatever was saved (by this version, an earlier one, or edited by
// hand), and the write that touches only what changed. Each trigger adds its own fields
// (Partner `since`, Enterprise `search`) and its own rules for which listed videos are new.
import type { IDataObject } from 'n8n-workflow';

import { type FailureCounts, readFailures, savedFailures } from './failing-videos';
import { MAX_KEY_LENGTH, videoKeyOf } from './video-key';

/** Videos waiting for delivery, at most (the rest of a larger backlog is emitted with a reason: backlog.ts). */
export const MAX_PENDING = 100;
/** A waiting video's saved JSON, at most (larger ones are not kept waiting: backlog.ts). */
export const MAX_PENDING_BYTES = 2048;

export interface PendingState {
	/** New videos found but not delivered yet, oldest first (saved as `backlog`). */
	pending: IDataObject[];
	/** Pending videos that failed on earlier polls while others were delivered (failing-videos.ts). */
	failures: FailureCounts;
}

/** What every trigger's saved state holds. */
export interface SeenState extends PendingState {
	version: number;
	/** The API the state belongs to: another Base URL starts afresh. */
	baseUrl: string;
	/** Keys (video-key.ts) of listed videos, most recently listed first. */
	keys: string[];
}

/** Saved keys that are strings of the bounded length, at most `max`, in order. */
export function readKeys(value: unknown, max: number): string[] {
	if (!Array.isArray(value)) return [];
	const keys = value.filter(
		(key): key is string =>
			typeof key === 'string' && key.length > 0 && key.length <= MAX_KEY_LENGTH,
	);
	return [...new Set(keys)].slice(0, max);
}

/** A saved pending video this version keeps: an object with a usable id, within MAX_PENDING_BYTES. */
export const keepable = (video: unknown, idField: string): video is IDataObject =>
	!!video &&
	typeof video === 'object' &&
	!Array.isArray(video) &&
	videoKeyOf((video as IDataObject)[idField]) !== '' &&
	JSON.stringify(video).length <= MAX_PENDING_BYTES;

/**
 * Pending videos and their failure counts as saved; anything malformed is dropped. Version 0.1.0
 * saved `pending` newest first; this one saves `backlog`, oldest first.
 */
export function readPending(data: IDataObject, idField: string): PendingState {
	const legacy = Array.isArray(data.pending) ? [...(data.pending as unknown[])].reverse() : [];
	const pending = Array.isArray(data.backlog) ? data.backlog : legacy;
	return {
		pending: pending.filter((video) => keepable(video, idField)).slice(0, MAX_PENDING),
		failures: readFailures(data.failures),
	};
}

/** Writes the fields that changed, so a poll that learnt nothing does not make n8n save the workflow. */
export function writeState(data: IDataObject, state: SeenState & object): void {
	const { pending, ...rest } = state;
	const fields: IDataObject = {
		...rest,
		backlog: pending,
		failures: savedFailures(state.failures),
	};
	if (!pending.length) delete fields.backlog;
	if (!state.failures.size) delete fields.failures;
	for (const name of Object.keys(data)) if (!(name in fields)) delete data[name];
	for (const [name, value] of Object.entries(fields))
		if (JSON.stringify(data[name]) !== JSON.stringify(value)) data[name] = value;
}
