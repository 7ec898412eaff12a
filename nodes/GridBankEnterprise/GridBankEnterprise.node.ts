import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ENTERPRISE } from './transport/profile';
import { operationSubtitle, resourceProperties } from '../shared/descriptions/resources';
import { runItems } from '../shared/run-items';
import { storageCredentialShown } from '../shared/descriptions/copy-properties';
import { videoListSearch } from '../shared/methods/video-picker';
import { resource as usage } from './actions/usage/usage.resource';
import { resource as video } from './actions/video/video.resource';

/** In picker order; the first is the default. */
const resources = [video, usage];

export class GridBankEnterprise implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'GridBank Enterprise',
		name: 'gridBankEnterprise',
		icon: { light: 'file:gridbank.svg', dark: 'file:gridbank.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: operationSubtitle(resources),
		description:
			'Search the GridBank catalogue and download originals under an enterprise subscription',
		defaults: { name: 'GridBank Enterprise' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'gridBankEnterpriseApi', required: true },
			{
				name: 'gridBankS3StorageApi',
				required: true,
				displayOptions: storageCredentialShown,
			},
		],
		properties: resourceProperties(resources),
	};

	methods = {
		listSearch: { searchVideos: videoListSearch(ENTERPRISE) },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runItems(this, ENTERPRISE, resources);
	}
}
