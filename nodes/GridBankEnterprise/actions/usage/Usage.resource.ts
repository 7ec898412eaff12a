// The Usage resource: the account's usage report.
import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';

export { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['usage'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get account usage',
				description: 'Get the subscription tier, lease period, downloads this period and the most downloaded videos',
			},
		],
		default: 'get',
	},
	...get.description,
];
