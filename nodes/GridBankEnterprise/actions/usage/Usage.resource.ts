// The Usage resource: the account's usage report.
import type { Resource } from '../../../shared/operation';
import * as get from './get.operation';

export const resource: Resource = {
	name: 'Usage',
	value: 'usage',
	defaultOperation: 'get',
	operations: [get],
};
