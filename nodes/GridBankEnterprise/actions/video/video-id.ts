// The Video ID picker Get Video and Get Download share, and its check against the API's pattern.
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	readVideoParameter,
	VIDEO_ID_REGEX,
	videoLocator,
} from '../../../shared/descriptions/video-locator';

/** GridBank's video_id: 1-50 letters, digits, "/", "_" or "-". */
export const VIDEO_ID_PATTERN = /^[a-zA-Z0-9/_-]{1,50}$/;

export const videoIdProperty = (what: string): INodeProperties =>
	videoLocator({
		name: 'videoId',
		displayName: 'Video ID',
		searchListMethod: 'searchVideos',
		searchFilterRequired: true,
		idRegex: VIDEO_ID_REGEX,
		idError:
			'A video ID is 1-50 letters, digits, "/", "_" or "-", and does not start or end with "/"',
		placeholder: 'e.g. gbv-3fK9xQ2m',
		description: `The video ${what}: its ID (1-50 letters, digits, "/", "_" or "-", such as gbv-3fK9xQ2m). Type words to search the catalogue and pick one, or map the ID field of a Search result.`,
	});

export const readVideoId = (ctx: IExecuteFunctions, itemIndex: number): string =>
	readVideoParameter(ctx, 'videoId', 'Video ID', itemIndex, VIDEO_ID_PATTERN);
