// Delivering a poll's queue (both triggers, any delivery: delivery.ts), within n8n's poll budget.
// A video that cannot be delivered for a reason of its own is emitted once with `downloadError`;
// one whose failure looks transient waits for the next poll, unless it keeps failing while
// other videos are delivered (failing-videos.ts). An account-level failure (key, rate limit,
// outage) ends the poll's deliveries: what was emitted before it is kept and the rest waits; the
// poll fails only when it has nothing to emit.
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isPerVideoFailure } from '../download/delivery-failure';
import type { IssuedUrl } from '../download/download-item';
import type { ItemContext } from '../item-context';
import { atItem } from '../transport/errors';
import { failureCause } from '../transport/failure-cause';
import type { VideoDelivery } from './delivery';
import { countFailures, type FailureCounts, repeatedFailureMessage } from './failing-videos';

/** n8n versions without a poll budget get the one current n8n applies. */
const DEFAULT_BUDGET_MS = 5 * 60_000;
/** A poll starts no further delivery once this share of its budget could be used up. */
const BUDGET_SHARE = 0.5;

export interface Delivery {
	items: INodeExecutionData[];
	/** Videos of the queue not emitted, in queue order: saved as pending. */
	pending: IDataObject[];
	failures: FailureCounts;
	/** The account-level failure that ended this poll's deliveries early, if any. */
	stoppedBy?: Error;
}

type Shape = (json: IDataObject, extras?: string[]) => IDataObject;

export interface DeliverOptions {
	startedAt: number;
	shape: Shape;
	/** Delivers one video (Download File, or another delivery). */
	delivery: VideoDelivery;
	/** The key a video is remembered by (its id, bounded: video-key.ts). */
	keyOf: (video: IDataObject) => string;
	/** The node's download-URL call for one listed video. */
	issueUrl: (item: ItemContext<IPollFunctions>, video: IDataObject) => Promise<IssuedUrl>;
	/**
	 * API statuses that concern the one video asked for (Partner: 403 not licensed, 404; Enterprise:
	 * 404 only, its 403 is the account's subscription).
	 */
	goneStatuses: string[];
}

/** Delivers the queue in order; stops early enough to stay inside n8n's poll budget. */
export async function deliver(
	item: ItemContext<IPollFunctions>,
	options: DeliverOptions,
	queue: IDataObject[],
	failures: FailureCounts,
): Promise<Delivery> {
	const { ctx } = item;
	const { keyOf } = options;
	const budget =
		typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : DEFAULT_BUDGET_MS;
	const items: INodeExecutionData[] = [];
	const emitted = new Set<string>();
	const held: Array<{ video: IDataObject; error: Error }> = [];
	let delivered = 0;
	let slowest = 0;
	let stoppedBy: Error | undefined;
	const withError = (video: IDataObject, message: string) => {
		emitted.add(keyOf(video));
		items.push({ json: options.shape({ ...video, downloadError: message }, ['downloadError']) });
	};
	for (const video of queue) {
		if (
			items.length + held.length &&
			Date.now() - options.startedAt + slowest > budget * BUDGET_SHARE
		)
			break;
		const began = Date.now();
		const key = keyOf(video);
		try {
			const { json, binary } = await options.delivery(video, {
				item,
				videoId: String(video[item.client.profile.idField]),
				issueUrl: async () => await options.issueUrl(item, video),
			});
			items.push({ json: options.shape({ ...video, ...json }, Object.keys(json)), binary });
			emitted.add(key);
			delivered++;
		} catch (error) {
			const own =
				videoGone(error, options.goneStatuses) ??
				(isPerVideoFailure(error) ? error.message : undefined);
			if (own !== undefined) withError(video, own);
			else if (accountLevel(error)) {
				// Nothing to emit: the poll fails and saves nothing. Else keep what was emitted.
				if (!items.length) throw atItem(error, 0);
				stoppedBy = error as Error;
				break;
			} else held.push({ video, error: error as Error });
		}
		slowest = Math.max(slowest, Date.now() - began);
	}
	// Nothing to emit: an outage, not these videos' own fault. The poll fails and saves nothing.
	if (held.length && !items.length) throw atItem(held[0].error, 0);
	const stillPending = new Set(queue.map(keyOf).filter((key) => !emitted.has(key)));
	// Failures count against a video only in a poll where another video was delivered.
	const counted = delivered
		? countFailures(
				failures,
				held.map(({ video }) => keyOf(video)),
				stillPending,
			)
		: countFailures(failures, [], stillPending);
	for (const { video, error } of held)
		if (counted.exhausted.has(keyOf(video)))
			withError(video, repeatedFailureMessage(error.message));
	return {
		items,
		pending: queue.filter((video) => !emitted.has(keyOf(video))),
		failures: counted.next,
		stoppedBy,
	};
}

/**
 * The message when GridBank no longer lets this account download a listed video (licence
 * refunded or withdrawn, video taken down: a `goneStatuses` answer for that video alone).
 */
function videoGone(error: unknown, statuses: string[]): string | undefined {
	if (!(error instanceof NodeApiError) || failureCause(error) !== 'configuration-invalid')
		return undefined;
	return statuses.includes(error.httpCode ?? '') ? error.message : undefined;
}

/**
 * Failures that are never one video's: the key or access (401, access revoked), the rate limit,
 * a bad parameter, and anything that is not the transport's own error (n8n's cancel, a bug).
 */
function accountLevel(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return true;
	const cause = failureCause(error);
	if (cause === 'credential-invalid' || cause === 'rate-limited') return true;
	if (cause === 'configuration-invalid') return true;
	return error.httpCode === '401' || error.httpCode === '429';
}
