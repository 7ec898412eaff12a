// Get Video: GET /external/v1/videos/{video_id}, the metadata object as GridBank returns it
// (or in the SDKs' video shape).
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { ENTERPRISE } from '../../transport/profile';
import { optionsCollection } from '../../../shared/descriptions/common-properties';
import type { ActionItem, OperationOption, OperationResult } from '../../../shared/operation';
import { jsonItems } from '../../../shared/operation';
import { videoObject } from '../../../shared/transport/body-checks';
import { outputFormatOption } from '../../../shared/descriptions/output-format';
import { shapeVideos } from '../../../shared/video-shape';
import { readOutputFormat } from '../../../shared/read-parameters';
import { readVideoId, videoIdProperty } from './video-id';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	action: 'Get video details',
	description:
		'Get the details of one video by its ID: title, description, duration, creator, dimensions, location, keywords',
};
export const subtitle = 'Get Video';

export const description: INodeProperties[] = [
	videoIdProperty('whose details to get'),
	optionsCollection([outputFormatOption]),
];

export async function execute(item: ActionItem): Promise<OperationResult> {
	const { client, itemIndex } = item;
	const videoId = readVideoId(item);
	const format = readOutputFormat(item);
	const { body } = await client.get<IDataObject>(ENTERPRISE.paths.video(videoId), {
		...item.scope,
		subject: videoId,
	});
	return jsonItems(
		shapeVideos(format, ENTERPRISE.videoFields, [
			videoObject(client.node, body, 'id', 'a video', itemIndex),
		]),
	);
}
