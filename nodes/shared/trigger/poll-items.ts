// What both triggers' polls share around their listing: the poll's settings read once, the
// items a queue of new videos becomes (with their files when Download File is on), the
// "Include Existing" options and the "Fetch Test Event" sample.
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { shapeVideos } from '../descriptions/video-shape';
import { type ItemContext, itemContext } from '../item-context';
import {
	type OutputFormat,
	readBoolean,
	readInteger,
	readOutputFormat,
	readParallelConnections,
} from '../read-parameters';
import type { ApiProfile } from '../transport/api-profile';
import { GridBankClient } from '../transport/client';
import { deliver, type DeliverOptions, type Delivery } from './downloads';
import type { FailureCounts } from './failing-videos';

export interface PollSettings {
	/** A poll is one item (index 0) as far as requests and errors go. */
	item: ItemContext<IPollFunctions>;
	download: boolean;
	parallelConnections: number;
	format: OutputFormat;
	startedAt: number;
	/** Response fields kept in the "Video" output format (Enterprise: search_id). */
	extras: string[];
	delivery: Pick<DeliverOptions, 'issueUrl' | 'goneStatuses'>;
}

/** The poll's parameters, read and checked before any request. */
export function pollSettings(
	ctx: IPollFunctions,
	profile: ApiProfile,
	options: Pick<PollSettings, 'extras' | 'delivery'>,
): PollSettings {
	const item = itemContext(ctx, new GridBankClient(ctx, profile), 0);
	const download = readBoolean(item, 'download', 'Download File');
	return {
		item,
		download,
		parallelConnections: download ? readParallelConnections(item) : 1,
		format: readOutputFormat(item),
		startedAt: Date.now(),
		...options,
	};
}

/** Items to emit, in queue order; with Download File, each carries its file (downloads.ts). */
export async function toItems(
	settings: PollSettings,
	queue: IDataObject[],
	failures: FailureCounts = {},
): Promise<Delivery> {
	const { item, format, extras } = settings;
	// The queue (and what is saved as pending) stays in the API's shape; only the output is reshaped.
	const shape = (json: IDataObject, more: string[] = []) =>
		shapeVideos(format, item.client.profile.videoFields, [json], [...extras, ...more])[0];
	if (!settings.download)
		return { items: queue.map((json) => ({ json: shape(json) })), pending: [], failures: {} };
	const { parallelConnections, startedAt, delivery } = settings;
	return await deliver(
		item,
		{ parallelConnections, startedAt, shape, ...delivery },
		queue,
		failures,
	);
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
