// If Exists = Fail: the key is taken.
import { NodeApiError } from 'n8n-workflow';

import type { ItemRef } from '../validate';
import type { StorageTarget } from './s3-call';

export function existsError(item: ItemRef, target: StorageTarget): NodeApiError {
	const message = `An object already exists at "${target.key}" in bucket "${target.bucket}"`;
	return new NodeApiError(
		item.node,
		{ message, status: 409 },
		{
			message,
			description:
				'If Exists is set to Fail, so nothing was copied. Set it to Skip (keep the object when it has the same size) or Overwrite, or choose another Key.',
			httpCode: '409',
			itemIndex: item.itemIndex,
		},
	);
}
