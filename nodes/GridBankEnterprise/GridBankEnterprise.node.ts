import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ENTERPRISE } from './transport/profile';
import { resourcePicker } from '../shared/descriptions/operation-picker';
import type { Operation } from '../shared/operation';
import { runItems } from '../shared/run-items';
import { videoListSearch } from '../shared/methods/video-picker';
import * as usage from './actions/usage/Usage.resource';
import * as video from './actions/video/Video.resource';

/** Router keys: "<resource>.<operation>". */
const operations: Record<string, Operation> = {
	'video.search': video.search,
	'video.get': video.get,
	'video.getDownload': video.getDownload,
	'usage.get': usage.get,
};

export class GridBankEnterprise implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'GridBank Enterprise',
		name: 'gridBankEnterprise',
		icon: { light: 'file:gridbank.svg', dark: 'file:gridbank.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle:
			'={{ {"video.search": "Search Videos", "video.get": "Get Video", "video.getDownload": "Get Download", "usage.get": "Get Usage"}[$parameter["resource"] + "." + $parameter["operation"]] }}',
		description:
			'Search the GridBank catalogue and download originals under an enterprise subscription',
		defaults: { name: 'GridBank Enterprise' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'gridBankEnterpriseApi', required: true }],
		properties: [
			resourcePicker(
				[
					{ name: 'Video', value: 'video' },
					{ name: 'Usage', value: 'usage' },
				],
				'video',
			),
			...video.description,
			...usage.description,
		],
	};

	methods = {
		listSearch: { searchVideos: videoListSearch(ENTERPRISE) },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runItems(this, ENTERPRISE, operations);
	}
}
