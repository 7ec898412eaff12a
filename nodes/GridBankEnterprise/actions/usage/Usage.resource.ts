// The Usage resource: the account's usage report.
import type { INodeProperties } from 'n8n-workflow';

import { operationPicker } from '../../../shared/descriptions/operation-picker';
import * as get from './get.operation';

export { get };

export const description: INodeProperties[] = [
	operationPicker(
		'usage',
		[
			{
				name: 'Get',
				value: 'get',
				action: 'Get account usage',
				description:
					'Get the subscription tier, lease period, downloads this period and the most downloaded videos',
			},
		],
		'get',
	),
	...get.description,
];
