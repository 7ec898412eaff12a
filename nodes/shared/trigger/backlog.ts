// The bounded, fair backlog of a trigger with a delivery (Download File): videos not delivered
// in a poll wait, oldest first, for the next polls. At most MAX_PENDING wait, each within
// MAX_PENDING_BYTES of saved JSON; any beyond that is emitted at once without delivery, with
// `downloadError` saying why, never dropped silently.
import type { IDataObject } from 'n8n-workflow';

import { keepable, MAX_PENDING, MAX_PENDING_BYTES } from './saved-state';

export const backlogFullMessage = () =>
	`Not delivered: more than ${MAX_PENDING} new videos were already waiting for delivery, so this one is passed on without its file. Poll more often, or give polls more time (n8n's poll budget).`;
export const tooLargeMessage = () =>
	`Not delivered in this poll, and its fields are larger than the ${MAX_PENDING_BYTES} bytes the trigger keeps for a waiting video, so it is passed on without its file.`;

export interface Backlog {
	/** What waits for the next poll, oldest first. */
	kept: IDataObject[];
	/** What cannot wait, with the reason (emitted now). */
	overflow: Array<{ video: IDataObject; reason: string }>;
}

/** Splits what is left after a poll's deliveries (oldest first) into what waits and what cannot. */
export function boundBacklog(left: IDataObject[], idField: string): Backlog {
	const kept: IDataObject[] = [];
	const overflow: Backlog['overflow'] = [];
	for (const video of left) {
		if (!keepable(video, idField)) overflow.push({ video, reason: tooLargeMessage() });
		else if (kept.length >= MAX_PENDING) overflow.push({ video, reason: backlogFullMessage() });
		else kept.push(video);
	}
	return { kept, overflow };
}
