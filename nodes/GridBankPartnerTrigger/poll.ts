// One poll of the GridBank Partner Trigger: list newest-first only as far as needed, emit each
// newly licensed video once (with its file when Download File is on), remember what was seen.
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listLicences } from '../GridBankPartner/transport/list';
import { PARTNER } from '../GridBankPartner/transport/profile';
import { GridBankClient } from '../shared/transport/client';
import { type ItemContext, itemContext } from '../shared/item-context';
import {
	type OutputFormat,
	readBoolean,
	readInteger,
	readOutputFormat,
	readParallelConnections,
} from '../shared/read-parameters';
import { shapeVideos } from '../shared/descriptions/video-shape';
import { deliver, type Delivery } from './downloads';
import type { FailureCounts } from './failing-videos';
import { afterListing, readState, stopPaging, writeState } from './seen-state';

interface PollSettings {
	/** A poll is one item (index 0) as far as requests and errors go. */
	item: ItemContext<IPollFunctions>;
	download: boolean;
	parallelConnections: number;
	format: OutputFormat;
	startedAt: number;
}

export async function poll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const item = itemContext(ctx, new GridBankClient(ctx, PARTNER), 0);
	const download = readBoolean(item, 'download', 'Download File');
	const settings: PollSettings = {
		item,
		download,
		parallelConnections: download ? readParallelConnections(item) : 1,
		format: readOutputFormat(item),
		startedAt: Date.now(),
	};
	const { baseUrl } = await item.client.getCredential(0);
	if (ctx.getMode() === 'manual') return [await newestLicence(settings)];

	const data = ctx.getWorkflowStaticData('node');
	const state = readState(data, baseUrl);
	const existing = state ? 0 : existingToEmit(item);
	const nowSeconds = Math.floor(settings.startedAt / 1000);
	const { items: listed } = await listLicences(item.client, item.scope, {
		stopAt: stopPaging(state, nowSeconds, existing),
	});
	const outcome = afterListing(state, listed, { baseUrl, nowSeconds, existing });
	const { items, pending, failures } = await toItems(settings, outcome.queue, state?.failures);
	// Only a poll that got this far moves the state: a failed one is repeated in full.
	writeState(data, outcome.next(pending, failures));
	return items.length ? [items] : null;
}

/** "Fetch Test Event": the newest licence, so fields can be mapped; the saved state is left alone. */
async function newestLicence(settings: PollSettings): Promise<INodeExecutionData[]> {
	const { item } = settings;
	const { items } = await listLicences(item.client, item.scope, { limit: 1 });
	if (!items.length)
		throw new NodeOperationError(item.node, 'This account has not licensed any video yet', {
			description:
				'There is no licence to show as a sample. License a video on GridBank (or ask the team owner to), then fetch the test event again.',
		});
	return (await toItems(settings, items)).items;
}

function existingToEmit(item: ItemContext<IPollFunctions>): number {
	if (!readBoolean(item, 'options.includeExisting', 'Include Existing Licences')) return 0;
	return readInteger(item, 'options.maxExisting', 'Max Existing Licences', {
		min: 1,
		fallback: 10,
	});
}

/** Items to emit, newest purchase first; with Download File, each carries its master file (downloads.ts). */
async function toItems(
	settings: PollSettings,
	queue: IDataObject[],
	failures: FailureCounts = {},
): Promise<Delivery> {
	// The queue (and what is saved as pending) stays in the API's shape; only the output is reshaped.
	const shape = (json: IDataObject, extras: string[] = []) =>
		shapeVideos(settings.format, PARTNER.videoFields, [json], extras)[0];
	if (!settings.download)
		return { items: queue.map((json) => ({ json: shape(json) })), pending: [], failures: {} };
	const { item, parallelConnections, startedAt } = settings;
	return await deliver(item, { parallelConnections, startedAt, shape }, queue, failures);
}
