// The Video ID picker Get Video and Get Download share, checked by the editor and the node with
// one pattern (VIDEO_ID_REGEX).
import type { INodeProperties } from 'n8n-workflow';

import { videoLocator } from '../../../shared/descriptions/video-locator';
import { type ItemParameters, readVideoParameter } from '../../../shared/read-parameters';
import { VIDEO_ID_REGEX } from '../../../shared/validate';

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

export const readVideoId = (item: ItemParameters): string =>
	readVideoParameter(item, 'videoId', 'Video ID', VIDEO_ID_REGEX);
