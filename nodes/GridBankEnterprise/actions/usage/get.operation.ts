// Get Usage: GET /external/v1/usage/me, the account's tier, lease period, downloads and top videos.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bodyObject } from '../../../shared/transport/body-checks';
import type { GridBankClient } from '../../../shared/transport/client';
import { optionsCollection, readMaxRetries } from '../../../shared/descriptions/common-properties';
import { jsonItems, type OperationResult } from '../../../shared/operation';

const show = { resource: ['usage'], operation: ['get'] };

export const description: INodeProperties[] = [optionsCollection(show)];

export async function execute(this: IExecuteFunctions, itemIndex: number, client: GridBankClient): Promise<OperationResult> {
	const maxRetries = readMaxRetries((name, fallback) => this.getNodeParameter(name, itemIndex, fallback), this.getNode(), itemIndex);
	const { body } = await client.get<IDataObject>('/usage/me', { itemIndex, maxRetries });
	return jsonItems([bodyObject(client.node, body, 'a usage report', itemIndex)]);
}
