// The Licensed Video resource and its operations, in picker order.
import type { Resource } from '../../../shared/operation';
import * as getDownloadUrl from './getDownloadUrl.operation';
import * as listContent from './listContent.operation';

export const resource: Resource = {
	name: 'Licensed Video',
	value: 'video',
	defaultOperation: 'listContent',
	operations: [listContent, getDownloadUrl],
};
