// The Video ID parameter Get Video and Get Download share, and its check against the API's pattern.
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { requireVideoId } from '../../../shared/validate';

/** GridBank's video_id: 1-50 letters, digits, "/", "_" or "-". */
export const VIDEO_ID_PATTERN = /^[a-zA-Z0-9/_-]{1,50}$/;

export const videoIdProperty = (show: NonNullable<INodeProperties['displayOptions']>['show']): INodeProperties => ({
	displayName: 'Video ID',
	name: 'videoId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. gb-8c1e2f',
	displayOptions: { show },
	description: 'The ID of a video, as Search returns it (1-50 letters, digits, "/", "_" or "-")',
});

export const readVideoId = (ctx: IExecuteFunctions, itemIndex: number): string =>
	requireVideoId(ctx.getNode(), ctx.getNodeParameter('videoId', itemIndex), 'Video ID', itemIndex, VIDEO_ID_PATTERN);
