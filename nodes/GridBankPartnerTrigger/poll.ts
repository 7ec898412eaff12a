// One poll of the GridBank Partner Trigger: list newest-first only as far as needed, emit each
// newly licensed video once (with its file when Download File is on), remember what was seen.
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { issueDownloadUrl } from '../GridBankPartner/transport/download-url';
import { listLicences } from '../GridBankPartner/transport/list';
import { PARTNER } from '../GridBankPartner/transport/profile';
import { GridBankClient } from '../shared/transport/client';
import { readParallelConnections } from '../shared/descriptions/common-properties';
import { isPerVideoFailure } from '../shared/download/delivery-failure';
import { downloadItem } from '../shared/download/download-item';
import { type ItemContext, itemContext } from '../shared/item-context';
import { atItem } from '../shared/transport/errors';
import { failureCause } from '../shared/transport/failure-cause';
import { readBoolean, readInteger } from '../shared/read-parameters';
import {
	readOutputFormat,
	shapeVideos,
	type OutputFormat,
} from '../shared/descriptions/video-shape';
import { afterListing, readState, stopPaging, videoKey, writeState } from './seen-state';

/** n8n versions without a poll budget get the one current n8n applies. */
const DEFAULT_BUDGET_MS = 5 * 60_000;
/** A poll starts no further download once this share of its budget could be used up. */
const BUDGET_SHARE = 0.5;

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
	const download = readBoolean(item.node, item.param('download', false), 'Download File', 0);
	const settings: PollSettings = {
		item,
		download,
		parallelConnections: download ? readParallelConnections(item.node, item.param, 0) : 1,
		format: readOutputFormat(ctx.getNode(), ctx.getNodeParameter('options.outputFormat', 'api'), 0),
		startedAt: Date.now(),
	};
	const { baseUrl } = await item.client.getCredential(0);
	if (ctx.getMode() === 'manual') return [await newestLicence(ctx, settings)];

	const data = ctx.getWorkflowStaticData('node');
	const state = readState(data, baseUrl);
	const existing = state ? 0 : existingToEmit(ctx);
	const nowSeconds = Math.floor(settings.startedAt / 1000);
	const { items: listed } = await listLicences(item.client, item.scope, {
		stopAt: stopPaging(state, nowSeconds, existing),
	});
	const outcome = afterListing(state, listed, { baseUrl, nowSeconds, existing });
	const items = await toItems(ctx, settings, outcome.queue);
	// Only a poll that got this far moves the state: a failed one is repeated in full.
	writeState(data, outcome.next(items.length));
	return items.length ? [items] : null;
}

/** "Fetch Test Event": the newest licence, so fields can be mapped; the saved state is left alone. */
async function newestLicence(
	ctx: IPollFunctions,
	settings: PollSettings,
): Promise<INodeExecutionData[]> {
	const { items } = await listLicences(settings.item.client, settings.item.scope, { limit: 1 });
	if (!items.length)
		throw new NodeOperationError(ctx.getNode(), 'This account has not licensed any video yet', {
			description:
				'There is no licence to show as a sample. License a video on GridBank (or ask the team owner to), then fetch the test event again.',
		});
	return await toItems(ctx, settings, items);
}

function existingToEmit(ctx: IPollFunctions): number {
	if (
		!readBoolean(
			ctx.getNode(),
			ctx.getNodeParameter('options.includeExisting', false),
			'Include Existing Licences',
			0,
		)
	)
		return 0;
	return readInteger(
		ctx.getNode(),
		ctx.getNodeParameter('options.maxExisting', 10),
		'Max Existing Licences',
		0,
		1,
	);
}

/**
 * Items to emit, newest purchase first. With Download File, each carries its master file; the
 * downloads stop early enough to stay inside n8n's poll budget, and the rest waits for the next
 * poll (the caller keeps it as pending), so a large backlog never makes a poll time out.
 */
async function toItems(
	ctx: IPollFunctions,
	settings: PollSettings,
	queue: IDataObject[],
): Promise<INodeExecutionData[]> {
	// The queue (and what is saved as pending) stays in the API's shape; only the output is reshaped.
	const shape = (json: IDataObject, extras: string[] = []) =>
		shapeVideos(settings.format, PARTNER.videoFields, [json], extras)[0];
	if (!settings.download) return queue.map((json) => ({ json: shape(json) }));
	const budget =
		typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : DEFAULT_BUDGET_MS;
	const { item, parallelConnections } = settings;
	const items: INodeExecutionData[] = [];
	let slowest = 0;
	for (const video of queue) {
		if (items.length && Date.now() - settings.startedAt + slowest > budget * BUDGET_SHARE) break;
		const began = Date.now();
		const key = videoKey(video);
		const issue = async () => await issueDownloadUrl(item, key);
		try {
			const { json, binary } = await downloadItem(item, {
				videoId: key,
				first: await issue(),
				issue,
				parallelConnections,
			});
			const file = { fileName: json.fileName, mimeType: json.mimeType, fileSize: json.fileSize };
			items.push({ json: shape({ ...video, ...file }, Object.keys(file)), binary });
		} catch (error) {
			const gone = licenceGone(error) ?? (isPerVideoFailure(error) ? error.message : undefined);
			// Already a NodeApiError or NodeOperationError from the shared transport (or n8n's
			// own cancel, which licenceGone never matches).
			if (gone === undefined) throw atItem(error, 0);
			items.push({ json: shape({ ...video, downloadError: gone }, ['downloadError']) });
		}
		slowest = Math.max(slowest, Date.now() - began);
	}
	return items;
}

/**
 * The message when GridBank no longer lets this account download a listed video (licence
 * refunded or withdrawn, video taken down: 403 or 404 for that video alone). Such a video, like
 * one whose file alone cannot be delivered (isPerVideoFailure), is emitted once without its
 * file instead of failing every later poll; anything else (access revoked, rate limit, storage
 * or network faults) fails the poll, which is then repeated.
 */
function licenceGone(error: unknown): string | undefined {
	if (!(error instanceof NodeApiError) || failureCause(error) !== 'configuration-invalid')
		return undefined;
	return error.httpCode === '403' || error.httpCode === '404' ? error.message : undefined;
}
