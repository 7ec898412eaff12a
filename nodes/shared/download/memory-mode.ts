// n8n's in-memory binary data mode (N8N_DEFAULT_BINARY_DATA_MODE=default, the default of n8n 1.x):
// a downloaded file is collected into one Buffer, then kept base64-encoded in the execution
// data, so a file costs its size several times over in n8n's own memory, and a multi-GB master
// kills the n8n process. Above this threshold the file is refused before its body is read.
import { NodeOperationError } from 'n8n-workflow';

import type { ItemRef } from '../validate';
import { mib } from '../transport/values';

/** The largest file downloaded while n8n keeps binary data in memory: 100 MiB. */
export const MEMORY_MODE_MAX_BYTES = 100 * 1024 * 1024;

export function tooBigForMemoryMode(item: ItemRef, size: number): NodeOperationError {
	return new NodeOperationError(
		item.node,
		`The file (${mib(size)}) is too big for n8n's in-memory binary data mode`,
		{
			description:
				`This n8n keeps binary data in memory (N8N_DEFAULT_BINARY_DATA_MODE=default, n8n 1.x's default), where a file over ${mib(MEMORY_MODE_MAX_BYTES)} ` +
				"can exhaust n8n's memory. Set N8N_DEFAULT_BINARY_DATA_MODE=filesystem (or s3 in queue mode) and restart n8n to download files this big, " +
				'or turn Download File off and pass the signed URL in the output (valid five minutes) to the node that needs the file.',
			itemIndex: item.itemIndex,
			failure: { cause: 'configuration-invalid' },
		},
	);
}
