// The Licensed Video resource and its operations, in picker order.
import type { Resource } from '../../../shared/operation';
import * as copyToStorage from './copy-to-storage.operation';
import * as getDownloadUrl from './get-download-url.operation';
import * as listContent from './list-content.operation';

export const resource: Resource = {
	name: 'Licensed Video',
	value: 'video',
	defaultOperation: 'listContent',
	operations: [listContent, getDownloadUrl, copyToStorage],
};
