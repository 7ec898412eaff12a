// What a poll does with the videos it found, for both triggers: the poll's settings read once,
// the items a queue of new videos becomes (each delivered when a delivery is chosen, the backlog
// bounded), the "Include Existing" options and the "Fetch Test Event" sample.
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { shapeVideos } from '../video-shape';
import { type ItemContext, itemContext } from '../item-context';
import { type OutputFormat, readBoolean, readInteger, readOutputFormat } from '../read-parameters';
import type { ApiProfile } from '../transport/api-profile';
import { GridBankClient } from '../transport/client';
import { boundBacklog } from './backlog';
import { chooseDelivery, type VideoDelivery } from './delivery';
import { deliver, type DeliverOptions, type Delivery } from './downloads';
import type { FailureCounts } from './failing-videos';
import { videoKeyOf } from './video-key';

export interface PollSettings {
	/** A poll is one item (index 0) as far as requests and errors go. */
	item: ItemContext<IPollFunctions>;
	/** What is done with each new video beyond emitting its fields (Download File); none: undefined. */
	delivery?: VideoDelivery;
	format: OutputFormat;
	startedAt: number;
	/** Response fields kept in the "Video" output format (Enterprise: search_id). */
	extras: string[];
	calls: Pick<DeliverOptions, 'issueUrl' | 'goneStatuses'>;
	/** The key a video is remembered by (its id, bounded). */
	keyOf: (video: IDataObject) => string;
}

/** The poll's parameters, read and checked before any request. */
export function pollSettings(
	ctx: IPollFunctions,
	profile: ApiProfile,
	options: Pick<PollSettings, 'extras' | 'calls'>,
): PollSettings {
	const item = itemContext(ctx, new GridBankClient(ctx, profile), 0);
	return {
		item,
		delivery: chooseDelivery(item),
		format: readOutputFormat(item),
		startedAt: Date.now(),
		keyOf: (video) => videoKeyOf(video[profile.idField]),
		...options,
	};
}

/**
 * Items to emit, in queue order. With a delivery each is delivered (downloads.ts); what is left
 * waits, bounded (backlog.ts), and what cannot wait is emitted now with the reason.
 */
export async function toItems(
	settings: PollSettings,
	queue: IDataObject[],
	failures: FailureCounts = new Map(),
): Promise<Delivery> {
	const { item, format, extras, delivery } = settings;
	// The queue (and what is saved as pending) stays in the API's shape; only the output is reshaped.
	const shape = (json: IDataObject, more: string[] = []) =>
		shapeVideos(format, item.client.profile.videoFields, [json], [...extras, ...more])[0];
	if (!delivery)
		return {
			items: queue.map((json) => ({ json: shape(json) })),
			pending: [],
			failures: new Map(),
		};
	const options = { startedAt: settings.startedAt, shape, delivery, keyOf: settings.keyOf };
	const done = await deliver(item, { ...options, ...settings.calls }, queue, failures);
	const { kept, overflow } = boundBacklog(done.pending, item.client.profile.idField);
	for (const { video, reason } of overflow)
		done.items.push({ json: shape({ ...video, downloadError: reason }, ['downloadError']) });
	return { ...done, pending: kept };
}

/**
 * How many existing videos the first poll emits: 0 unless "Include Existing <noun>" is on,
 * then "Max Existing <noun>" (at most `max`).
 */
export function existingToEmit(
	item: ItemContext<IPollFunctions>,
	noun: string,
	max = Number.MAX_SAFE_INTEGER,
): number {
	if (!readBoolean(item, 'options.includeExisting', `Include Existing ${noun}`)) return 0;
	return readInteger(item, 'options.maxExisting', `Max Existing ${noun}`, {
		min: 1,
		max,
		fallback: 10,
	});
}

/** "Fetch Test Event": the newest video, so fields can be mapped; no saved state is touched. */
export async function sample(
	settings: PollSettings,
	newest: () => Promise<IDataObject[]>,
	empty: { message: string; description: string },
): Promise<INodeExecutionData[][]> {
	const found = await newest();
	if (!found.length)
		throw new NodeOperationError(settings.item.node, empty.message, {
			description: empty.description,
		});
	return [(await toItems(settings, found.slice(0, 1))).items];
}
