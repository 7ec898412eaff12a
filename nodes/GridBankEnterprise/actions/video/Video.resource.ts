// The Video resource and its operations, in picker order.
import type { Resource } from '../../../shared/operation';
import * as get from './get.operation';
import * as getDownload from './getDownload.operation';
import * as search from './search.operation';

export const resource: Resource = {
	name: 'Video',
	value: 'video',
	defaultOperation: 'search',
	operations: [get, getDownload, search],
};
