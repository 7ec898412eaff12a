// The part of a trigger's saved state (n8n's static data of the node) both triggers share:
// videos found but not emitted yet, their failure counts, and a write that touches only what
// changed.
import type { IDataObject } from 'n8n-workflow';

import { type FailureCounts, readFailures } from './failing-videos';

export interface PendingState {
	/** New videos found but not emitted yet (a poll that downloads stops before its time budget runs out). */
	pending: IDataObject[];
	/** Pending videos that failed on earlier polls while others were delivered (failing-videos.ts). */
	failures: FailureCounts;
}

/** Pending videos and their failure counts as saved; anything malformed is dropped. */
export function readPending(data: IDataObject): PendingState {
	return {
		pending: Array.isArray(data.pending) ? (data.pending as IDataObject[]) : [],
		failures: readFailures(data.failures),
	};
}

/** Writes the fields that changed, so a poll that learnt nothing does not make n8n save the workflow. */
export function writeState(data: IDataObject, state: PendingState & object): void {
	const fields: IDataObject = { ...state };
	if (!state.pending.length) delete fields.pending;
	if (!Object.keys(state.failures).length) delete fields.failures;
	for (const name of Object.keys(data)) if (!(name in fields)) delete data[name];
	for (const [name, value] of Object.entries(fields))
		if (JSON.stringify(data[name]) !== JSON.stringify(value)) data[name] = value;
}
