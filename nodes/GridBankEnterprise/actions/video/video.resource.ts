// The Video resource and its operations, in picker order.
import type { Resource } from '../../../shared/operation';
import * as copyToStorage from './copy-to-storage.operation';
import * as get from './get.operation';
import * as getDownload from './get-download.operation';
import * as search from './search.operation';

export const resource: Resource = {
	name: 'Video',
	value: 'video',
	defaultOperation: 'search',
	operations: [copyToStorage, get, getDownload, search],
};
