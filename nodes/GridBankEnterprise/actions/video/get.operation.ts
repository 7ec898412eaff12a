// Get Video: GET /external/v1/videos/{video_id}, the metadata object as GridBank returns it
// (or in the SDKs' video shape).
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ENTERPRISE } from '../../transport/profile';
import type { GridBankClient } from '../../../shared/transport/client';
import { optionsCollection, readMaxRetries } from '../../../shared/descriptions/common-properties';
import { jsonItems, type OperationResult } from '../../../shared/operation';
import { videoObject } from '../../../shared/transport/body-checks';
import { encodeId } from '../../../shared/validate';
import { outputFormatOption, readOutputFormat, shapeVideos } from '../../../shared/descriptions/video-shape';
import { readVideoId, videoIdProperty } from './video-id';

const show = { resource: ['video'], operation: ['get'] };

export const description: INodeProperties[] = [
	videoIdProperty(show, 'whose details to get'),
	optionsCollection(show, [outputFormatOption]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, client: GridBankClient): Promise<OperationResult> {
	const videoId = readVideoId(this, itemIndex);
	const maxRetries = readMaxRetries((name, fallback) => this.getNodeParameter(name, itemIndex, fallback), this.getNode(), itemIndex);
	const format = readOutputFormat(this.getNode(), this.getNodeParameter('options.outputFormat', itemIndex, 'api'), itemIndex);
	const { body } = await client.get<IDataObject>(`/videos/${encodeId(videoId)}`, { itemIndex, maxRetries, subject: videoId });
	return jsonItems(shapeVideos(format, ENTERPRISE.videoFields, [videoObject(client.node, body, 'id', 'a video', itemIndex)]));
}
