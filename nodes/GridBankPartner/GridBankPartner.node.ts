import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { PARTNER } from './transport/profile';
import { resourcePicker } from '../shared/descriptions/operation-picker';
import type { Operation } from '../shared/operation';
import { runItems } from '../shared/run-items';
import { videoListSearch } from '../shared/methods/video-picker';
import * as video from './actions/video/Video.resource';

/**
 * Router keys: "<resource>.<operation>". The single resource exists for n8n's sake: it names an
 * AI tool after the operation's action only when the operation list is shown for a resource.
 * Workflows saved without it get its default, so they route the same.
 */
const operations: Record<string, Operation> = {
	'video.listContent': video.listContent,
	'video.getDownloadUrl': video.getDownloadUrl,
};

export class GridBankPartner implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'GridBank Partner',
		name: 'gridBankPartner',
		icon: { light: 'file:gridbank.svg', dark: 'file:gridbank.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle:
			'={{ {"listContent": "List Licensed Content", "getDownloadUrl": "Get Download URL"}[$parameter["operation"]] }}',
		description:
			'List the videos your GridBank account has licensed and download their master files',
		defaults: { name: 'GridBank Partner' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'gridBankPartnerApi', required: true }],
		properties: [
			resourcePicker([{ name: 'Licensed Video', value: 'video' }], 'video'),
			...video.description,
		],
	};

	methods = {
		listSearch: { searchLicensedVideos: videoListSearch(PARTNER) },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runItems(this, PARTNER, operations);
	}
}
