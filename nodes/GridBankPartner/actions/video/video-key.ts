// The Video Key picker Get Download URL and Copy to Storage share: this account's licences, newest
// first, checked by the editor and the node with one pattern (VIDEO_KEY_REGEX).
import type { INodeProperties } from 'n8n-workflow';

import { videoLocator } from '../../../shared/descriptions/video-locator';
import { type ItemParameters, readVideoParameter } from '../../../shared/read-parameters';
import { VIDEO_KEY_REGEX } from '../../../shared/validate';

export const videoKeyProperty = (what: string): INodeProperties =>
	videoLocator({
		name: 'videoKey',
		displayName: 'Video Key',
		searchListMethod: 'searchLicensedVideos',
		searchFilterRequired: false,
		idRegex: VIDEO_KEY_REGEX,
		idError:
			'A video key is 1-50 characters, without "\\", control characters or empty, "." or ".." path segments',
		placeholder: 'e.g. gbv-3fK9xQ2m',
		description: `The video ${what}: its video_key (1-50 characters, such as gbv-3fK9xQ2m), from this account's licences. Pick it from the list (newest licence first; type to filter by title), or map video_key from List Licensed Content or the GridBank Partner Trigger.`,
	});

export const readVideoKey = (item: ItemParameters): string =>
	readVideoParameter(item, 'videoKey', 'Video Key');
