// Which files n8n's binary data store can hold, learnt only from what n8n hands a node.
import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemContext } from '../item-context';
import type { ItemRef } from '../validate';
import { mib } from '../transport/values';

import { markPerVideo } from './delivery-failure';
import { MEMORY_MODE_MAX_BYTES, tooBigForMemoryMode } from './memory-mode';

/** Action nodes download per input item; the Partner Trigger downloads what a poll found. */
export type DownloadContext = IExecuteFunctions | IPollFunctions;

/*
 * Big files and n8n's binary data modes. In `database` mode (n8n's default in queue mode) n8n
 * buffers a whole file in memory, then refuses it above N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE
 * (512 MiB by default, 1 GiB at most). A node may not read n8n's settings or environment
 * variables, and n8n hands nodes neither the mode nor the limit. So this relies only on what
 * n8n itself gives nodes:
 * - The mode: n8n's prepareBinaryData helper names its store in the id of what it stored
 *   ("database:…", "filesystem-v2:…", "s3:…"; no id when binaries stay in memory), so an empty
 *   probe file tells it, once per node run, and only for a file over 100 MiB (memory-mode.ts
 *   refuses those when n8n keeps binary data in memory).
 * - A file whose size is known before its body (Enterprise's file_size, storage's Content-Range
 *   total or Content-Length) and over 1 GiB, which no database-mode setting can hold, fails
 *   before the body is read: no multi-GB buffer in a worker's memory.
 * - A file of 1 GiB or less above a lower configured limit is refused by n8n itself, after it
 *   buffered the file: its own error (FileTooLargeError, "… set for `database` mode") is
 *   recognised and replaced by the same advice, instead of being reported as a broken transfer.
 */
const DATABASE_MODE_MAX_BYTES = 1024 * 1024 * 1024;
const storeModes = new WeakMap<DownloadContext, Promise<string>>();

/** n8n's binary data mode, as its own helper reveals it; "unknown" if the probe failed. */
function binaryDataMode(ctx: DownloadContext): Promise<string> {
	let mode = storeModes.get(ctx);
	if (!mode) {
		mode = ctx.helpers.prepareBinaryData(Buffer.alloc(0), 'gridbank-binary-mode-probe').then(
			(probe) => (probe.id ? probe.id.slice(0, probe.id.indexOf(':')) : 'memory'),
			() => 'unknown',
		);
		storeModes.set(ctx, mode);
	}
	return mode;
}

export function tooBigForDatabaseMode(item: ItemRef, size: number | undefined, limit: string) {
	return markPerVideo(
		new NodeOperationError(
			item.node,
			`The file${size === undefined ? '' : ` (${mib(size)})`} is too big for n8n's "database" binary data mode`,
			{
				description:
					`This n8n keeps binary data in its database (n8n's default in queue mode), which holds at most ${limit} per file. ` +
					"To download files this big, set n8n's binary data mode to S3 (queue mode) or filesystem (a single n8n instance) with N8N_DEFAULT_BINARY_DATA_MODE, " +
					'or turn Download File off and pass the signed URL in the output (valid five minutes) to the node that needs the file.',
				itemIndex: item.itemIndex,
				failure: { cause: 'configuration-invalid' },
			},
		),
	);
}

/** The refusal for a file of known size that n8n's binary data store cannot hold, if any. */
export async function storeRefusal(item: ItemContext, size: number | undefined) {
	if (size === undefined || size <= MEMORY_MODE_MAX_BYTES) return undefined;
	const mode = await binaryDataMode(item.ctx);
	if (mode === 'memory') return tooBigForMemoryMode(item, size);
	if (size <= DATABASE_MODE_MAX_BYTES || mode !== 'database') return undefined;
	return tooBigForDatabaseMode(
		item,
		size,
		'1 GiB (512 MiB unless N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE raises it)',
	);
}

/** The limit (MiB) in n8n's own FileTooLargeError from database mode, if that is what this is. */
export function databaseModeLimit(error: unknown): string | undefined {
	const message = error instanceof Error ? error.message : '';
	const limit = /max size limit of ([\d.]+) MB set for `database` mode/.exec(message)?.[1];
	if (limit) return `${limit} MiB`;
	return error instanceof Error && error.constructor.name === 'FileTooLargeError'
		? 'its configured size'
		: undefined;
}
