// The editor's "Output Format" option; the node reads it with readOutputFormat
// (../read-parameters.ts) and applies it with shapeVideos (../video-shape.ts).
import type { INodeProperties } from 'n8n-workflow';

/** The "Output Format" option of List, Search, Get and the trigger (read by readOutputFormat). */
export const outputFormatOption: INodeProperties = {
	displayName: 'Output Format',
	name: 'outputFormat',
	type: 'options',
	default: 'api',
	options: [
		{
			name: 'API Fields',
			value: 'api',
			description: 'Each video exactly as this GridBank API returns it, with its own field names',
		},
		{
			name: 'Video (Same for Partner and Enterprise)',
			value: 'video',
			description:
				"The shape GridBank's SDKs use for both APIs: ID, title, duration, URL (watermarked preview), thumbnail, creator, purchasedAt, description, width, height, location, keywords. A field the API does not have is null.",
		},
	],
	description:
		'How each video is output. Choose Video to mix Partner and Enterprise items in one workflow without renaming fields.',
};
