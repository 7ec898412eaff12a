// The one poll both triggers run. Each trigger supplies only what differs (a TriggerSource):
// how it lists, what its id is, what its saved state adds and which listed videos are new.
// The skeleton reads the state, lists, delivers (oldest waiting video first, then the new ones),
// and saves the state once deliveries are done: a poll that fails saves nothing and is repeated.
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { ItemContext } from '../item-context';
import type { ApiProfile } from '../transport/api-profile';
import type { FailureCounts } from './failing-videos';
import { existingToEmit, type PollSettings, pollSettings, sample, toItems } from './poll-items';
import { type SeenState, writeState } from './saved-state';

export interface PollScope {
	item: ItemContext<IPollFunctions>;
	baseUrl: string;
	/** The poll's start, Unix seconds. */
	nowSeconds: number;
	/** Without a state: how many existing videos the first poll emits (Include Existing). */
	existing: number;
}

export interface Listing {
	/** Videos listed this poll, newest first. */
	listed: IDataObject[];
	/** Said on the last item (and logged) when the listing could not read all that was new. */
	hint?: string;
	/** Pages read, where the trigger's rules use it. */
	pages?: number;
}

export interface Seen<S extends SeenState> {
	/** Listed videos that are new (not remembered, not waiting), newest first. */
	fresh: IDataObject[];
	/** The state to save, given what still waits (oldest first) and its failure counts. */
	next: (pending: IDataObject[], failures: FailureCounts) => S;
}

export interface TriggerSource<S extends SeenState> {
	/** The node's name, for log lines. */
	name: string;
	profile: ApiProfile;
	/** Response fields kept in the Video output format. */
	extras: string[];
	calls: PollSettings['calls'];
	existing: { noun: string; max?: number };
	sample: {
		newest: (item: ItemContext<IPollFunctions>) => Promise<IDataObject[]>;
		empty: { message: string; description: string };
	};
	/** This trigger's saved state for this poll (none: the first poll), and a note when it starts afresh. */
	readState: (
		item: ItemContext<IPollFunctions>,
		data: IDataObject,
		baseUrl: string,
	) => {
		state?: S;
		note?: string;
	};
	list: (scope: PollScope, state: S | undefined) => Promise<Listing>;
	seen: (scope: PollScope, state: S | undefined, listing: Listing) => Seen<S>;
}

export async function runPoll<S extends SeenState>(
	ctx: IPollFunctions,
	source: TriggerSource<S>,
): Promise<INodeExecutionData[][] | null> {
	const settings = pollSettings(ctx, source.profile, {
		extras: source.extras,
		calls: source.calls,
	});
	const { item } = settings;
	const { baseUrl } = await item.client.getCredential(0);
	if (ctx.getMode() === 'manual')
		return await sample(
			settings,
			async () => await source.sample.newest(item),
			source.sample.empty,
		);

	const data = ctx.getWorkflowStaticData('node');
	const { state, note } = source.readState(item, data, baseUrl);
	if (note) ctx.logger.info(`${source.name}: ${note}`);
	const scope: PollScope = {
		item,
		baseUrl,
		nowSeconds: Math.floor(settings.startedAt / 1000),
		existing: state ? 0 : existingToEmit(item, source.existing.noun, source.existing.max),
	};
	const listing = await source.list(scope, state);
	const { hint } = listing;
	const seen = source.seen(scope, state, listing);
	// With a delivery, a backlog drains fairly: what waited longest goes first, then the new
	// videos oldest first. Without one, nothing waits and new videos come newest first.
	const queue = settings.delivery
		? [...(state?.pending ?? []), ...[...seen.fresh].reverse()]
		: seen.fresh;
	const { items, pending, failures, stoppedBy } = await toItems(settings, queue, state?.failures);
	writeState(data, seen.next(pending, failures));
	if (stoppedBy)
		ctx.logger.warn(
			`${source.name}: ${stoppedBy.message}: ${items.length} videos were emitted, ${pending.length} wait for the next poll`,
		);
	if (hint && items.length) {
		ctx.logger.warn(`${source.name}: ${hint}`);
		const last = items[items.length - 1];
		items[items.length - 1] = { ...last, json: { ...last.json, hint } };
	}
	return items.length ? [items] : null;
}
