// Download File in a poll (both triggers): each new video with its file, newest first, within
// n8n's poll budget. A video that cannot be delivered for a reason of its own is emitted once
// with `downloadError`; one whose failure looks transient waits for the next poll, unless it
// keeps failing while other videos download (failing-videos.ts). Anything else fails the poll.
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isPerVideoFailure } from '../download/delivery-failure';
import { downloadItem, type IssuedUrl } from '../download/download-item';
import type { ItemContext } from '../item-context';
import { atItem } from '../transport/errors';
import { failureCause } from '../transport/failure-cause';
import { countFailures, type FailureCounts, repeatedFailureMessage } from './failing-videos';

/** n8n versions without a poll budget get the one current n8n applies. */
const DEFAULT_BUDGET_MS = 5 * 60_000;
/** A poll starts no further download once this share of its budget could be used up. */
const BUDGET_SHARE = 0.5;

export interface Delivery {
	items: INodeExecutionData[];
	/** Videos of the queue not emitted, in queue order: saved as pending. */
	pending: IDataObject[];
	failures: FailureCounts;
}

type Shape = (json: IDataObject, extras?: string[]) => IDataObject;

export interface DeliverOptions {
	parallelConnections: number;
	startedAt: number;
	shape: Shape;
	/** The node's download-URL call for one listed video. */
	issueUrl: (item: ItemContext<IPollFunctions>, video: IDataObject) => Promise<IssuedUrl>;
	/**
	 * API statuses that concern the one video asked for (Partner: 403 not licensed, 404; Enterprise:
	 * 404 only, its 403 is the account's subscription).
	 */
	goneStatuses: string[];
}

/** A listed video's id in its API's field (Partner video_key, Enterprise id). */
export const keyOf = (item: ItemContext, video: IDataObject) =>
	String(video[item.client.profile.idField]);

/**
 * Downloads the queue's files. Stops early enough to stay inside n8n's poll budget (the rest
 * stays pending), so a large backlog never makes a poll time out.
 */
export async function deliver(
	item: ItemContext<IPollFunctions>,
	options: DeliverOptions,
	queue: IDataObject[],
	failures: FailureCounts,
): Promise<Delivery> {
	const { ctx } = item;
	const videoKey = (video: IDataObject) => keyOf(item, video);
	const budget =
		typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : DEFAULT_BUDGET_MS;
	const items: INodeExecutionData[] = [];
	const emitted = new Set<string>();
	const held: Array<{ video: IDataObject; error: Error }> = [];
	let delivered = 0;
	let slowest = 0;
	const withError = (video: IDataObject, message: string) => {
		emitted.add(videoKey(video));
		items.push({ json: options.shape({ ...video, downloadError: message }, ['downloadError']) });
	};
	for (const video of queue) {
		if (
			items.length + held.length &&
			Date.now() - options.startedAt + slowest > budget * BUDGET_SHARE
		)
			break;
		const began = Date.now();
		const key = videoKey(video);
		const issue = async () => await options.issueUrl(item, video);
		try {
			const { json, binary } = await downloadItem(item, {
				videoId: key,
				first: await issue(),
				issue,
				parallelConnections: options.parallelConnections,
			});
			const file = { fileName: json.fileName, mimeType: json.mimeType, fileSize: json.fileSize };
			items.push({ json: options.shape({ ...video, ...file }, Object.keys(file)), binary });
			emitted.add(key);
			delivered++;
		} catch (error) {
			const own =
				videoGone(error, options.goneStatuses) ??
				(isPerVideoFailure(error) ? error.message : undefined);
			if (own !== undefined) withError(video, own);
			// Already a NodeApiError or NodeOperationError from the shared transport.
			else if (accountLevel(error)) throw atItem(error, 0);
			else held.push({ video, error: error as Error });
		}
		slowest = Math.max(slowest, Date.now() - began);
	}
	// Nothing delivered: an outage, not these videos' own fault. The poll fails and saves nothing.
	if (held.length && !delivered) throw atItem(held[0].error, 0);
	const stillPending = new Set(queue.map(videoKey).filter((key) => !emitted.has(key)));
	const counted = countFailures(
		failures,
		held.map(({ video }) => videoKey(video)),
		stillPending,
	);
	for (const { video, error } of held)
		if (counted.exhausted.has(videoKey(video)))
			withError(video, repeatedFailureMessage(error.message));
	return {
		items,
		pending: queue.filter((video) => !emitted.has(videoKey(video))),
		failures: counted.next,
	};
}

/**
 * The message when GridBank no longer lets this account download a listed video (licence
 * refunded or withdrawn, video taken down: a `goneStatuses` answer for that video alone). Such a video, like
 * one whose file alone cannot be delivered (isPerVideoFailure), is emitted once without its
 * file instead of failing every later poll.
 */
function videoGone(error: unknown, statuses: string[]): string | undefined {
	if (!(error instanceof NodeApiError) || failureCause(error) !== 'configuration-invalid')
		return undefined;
	return statuses.includes(error.httpCode ?? '') ? error.message : undefined;
}

/**
 * Failures that are never one video's: the key or access (401, access revoked), the rate limit,
 * a bad parameter, and anything that is not the transport's own error (n8n's cancel, a bug).
 * They fail the poll at once, which is then repeated.
 */
function accountLevel(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return true;
	const cause = failureCause(error);
	if (cause === 'credential-invalid' || cause === 'rate-limited') return true;
	if (cause === 'configuration-invalid') return true;
	return error.httpCode === '401' || error.httpCode === '429';
}
