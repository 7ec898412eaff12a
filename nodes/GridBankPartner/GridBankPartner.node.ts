import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { PARTNER } from './transport/profile';
import type { Operation } from '../shared/operation';
import { runItems } from '../shared/run-items';
import { videoListSearch } from '../shared/methods/video-picker';
import * as getDownloadUrl from './actions/video/getDownloadUrl.operation';
import * as listContent from './actions/video/listContent.operation';

/**
 * Router keys: "<resource>.<operation>". The single resource exists for n8n's sake: it names an
 * AI tool after the operation's action only when the operation list is shown for a resource.
 * Workflows saved without it get its default, so they route the same.
 */
const operations: Record<string, Operation> = { 'video.listContent': listContent, 'video.getDownloadUrl': getDownloadUrl };

export class GridBankPartner implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'GridBank Partner',
		name: 'gridBankPartner',
		icon: { light: 'file:gridbank.svg', dark: 'file:gridbank.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: '={{ {"listContent": "List Licensed Content", "getDownloadUrl": "Get Download URL"}[$parameter["operation"]] }}',
		description: 'List the videos your GridBank account has licensed and download their master files',
		defaults: { name: 'GridBank Partner' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'gridBankPartnerApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Licensed Video', value: 'video' }],
				default: 'video',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['video'] } },
				options: [
					{
						name: 'List Licensed Content',
						value: 'listContent',
						action: 'List licensed videos',
						description:
							'List the videos this account (and its team owner) has licensed, newest purchase first, with their video keys, titles and preview links',
					},
					{
						name: 'Get Download URL',
						value: 'getDownloadUrl',
						action: 'Get a download URL for a licensed video',
						description:
							'Get a signed, five-minute URL of the unwatermarked master file of one licensed video; with Download File on, also the file itself as binary data',
					},
				],
				default: 'listContent',
			},
			...listContent.description,
			...getDownloadUrl.description,
		],
	};

	methods = {
		listSearch: { searchLicensedVideos: videoListSearch(PARTNER) },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runItems(this, PARTNER, operations);
	}
}
