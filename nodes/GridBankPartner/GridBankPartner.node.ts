import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { PARTNER } from './transport/profile';
import { operationSubtitle, resourceProperties } from '../shared/descriptions/resources';
import { runItems } from '../shared/run-items';
import { storageCredentialShown } from '../shared/descriptions/copy-properties';
import { videoListSearch } from '../shared/methods/video-picker';
import { resource as video } from './actions/video/video.resource';

/**
 * The single resource exists for n8n's sake: it names an AI tool after the operation's action
 * only when the operation list is shown for a resource. Workflows saved without it get its
 * default, so they route the same.
 */
const resources = [video];

export class GridBankPartner implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'GridBank Partner',
		name: 'gridBankPartner',
		icon: { light: 'file:gridbank.svg', dark: 'file:gridbank.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: operationSubtitle(resources),
		description:
			'List the videos your GridBank account has licensed and download their master files',
		defaults: { name: 'GridBank Partner' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'gridBankPartnerApi', required: true },
			{
				name: 'gridBankS3StorageApi',
				required: true,
				displayOptions: storageCredentialShown,
			},
		],
		properties: resourceProperties(resources),
	};

	methods = {
		listSearch: { searchLicensedVideos: videoListSearch(PARTNER) },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runItems(this, PARTNER, resources);
	}
}
