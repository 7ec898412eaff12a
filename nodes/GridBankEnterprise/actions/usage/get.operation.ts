// Get Usage: GET /external/v1/usage/me, the account's tier, lease period, downloads and top videos.
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { ENTERPRISE } from '../../transport/profile';
import { bodyObject } from '../../../shared/transport/body-checks';
import { optionsCollection } from '../../../shared/descriptions/common-properties';
import type { ActionItem, OperationOption, OperationResult } from '../../../shared/operation';
import { jsonItems } from '../../../shared/operation';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get account usage',
	description:
		'Get the subscription tier, lease period, downloads this period and the most downloaded videos',
};
export const subtitle = 'Get Usage';

export const description: INodeProperties[] = [optionsCollection()];

export async function execute(item: ActionItem): Promise<OperationResult> {
	const { body } = await item.client.get<IDataObject>(ENTERPRISE.paths.usage, item.scope);
	return jsonItems([bodyObject(item.node, body, 'a usage report', item.itemIndex)]);
}
