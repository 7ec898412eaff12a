// Two minimal nodes that do only what n8n's own helpers do, run in the same engine as ours:
// the floor the engine sets, so a gap between ours and raw undici can be split into n8n's
// part and ours.
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { USER_AGENT } from '../nodes/shared/version';
import { registerNodeType } from '../test/harness/node-types';

const describe = (
	name: string,
	description: string,
	properties: INodeTypeDescription['properties'],
): INodeTypeDescription => ({
	displayName: name,
	name,
	group: ['transform'],
	version: 1,
	description,
	defaults: { name },
	inputs: ['main'],
	outputs: ['main'],
	credentials: [{ name: 'gridBankPartnerApi', required: false }],
	properties,
});

/** httpRequest as a stream into prepareBinaryData: what any node that stores a URL's body does. */
class BareDownload implements INodeType {
	description = describe('benchBareDownload', 'httpRequest stream → prepareBinaryData', [
		{ displayName: 'URL', name: 'url', type: 'string', default: '' },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const response = (await this.helpers.httpRequest({
			method: 'GET',
			url: this.getNodeParameter('url', 0) as string,
			headers: { 'User-Agent': USER_AGENT },
			encoding: 'stream',
			returnFullResponse: true,
		})) as { body: Buffer };
		const binary = await this.helpers.prepareBinaryData(
			response.body,
			'master.mov',
			'video/quicktime',
		);
		return [[{ json: { fileSize: binary.bytes }, binary: { data: binary } }]];
	}
}

/**
 * n8n's own floor for a parallel download: `parts` equal byte ranges fetched at once, each
 * through httpRequest as a stream into its own prepareBinaryData (n8n's HTTP client and binary
 * store for every byte, with no order, no memory window and no checks: what the node cannot go below).
 */
class BareRangedDownload implements INodeType {
	description = describe(
		'benchBareRangedDownload',
		'N ranged httpRequest streams → prepareBinaryData',
		[
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Size', name: 'size', type: 'number', default: 0 },
			{ displayName: 'Parts', name: 'parts', type: 'number', default: 8 },
		],
	);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const url = this.getNodeParameter('url', 0) as string;
		const size = this.getNodeParameter('size', 0) as number;
		const parts = this.getNodeParameter('parts', 0) as number;
		const part = Math.ceil(size / parts);
		const items = await Promise.all(
			Array.from({ length: parts }, async (_, i) => {
				const start = i * part;
				const end = Math.min(size, start + part);
				const response = (await this.helpers.httpRequest({
					method: 'GET',
					url,
					headers: { 'User-Agent': USER_AGENT, Range: `bytes=${start}-${end - 1}` },
					encoding: 'stream',
					returnFullResponse: true,
				})) as { body: Buffer };
				const binary = await this.helpers.prepareBinaryData(
					response.body,
					`part-${i}.mov`,
					'video/quicktime',
				);
				return { json: { fileSize: binary.bytes }, binary: { data: binary } };
			}),
		);
		return [items];
	}
}

/**
 * Per item: read the video key parameter (an expression) and GET its download URL through
 * httpRequestWithAuthentication with the same credential: n8n's own cost per API call.
 */
class BareApiGet implements INodeType {
	description = describe('benchBareApiGet', 'one authenticated GET per item', [
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
		{ displayName: 'Video Key', name: 'videoKey', type: 'string', default: '' },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			const key = this.getNodeParameter('videoKey', i) as string;
			const response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'gridBankPartnerApi',
				{
					method: 'GET',
					url: `${this.getNodeParameter('baseUrl', i) as string}/partner/v1/videos/${encodeURIComponent(key)}/download`,
					headers: { 'User-Agent': USER_AGENT, Accept: 'application/json' },
					json: true,
				},
			)) as INodeExecutionData['json'];
			out.push({ json: response, pairedItem: { item: i } });
		}
		return [out];
	}
}

let registered = false;
export function registerBareNodes(): void {
	if (registered) return;
	registered = true;
	registerNodeType('benchBareDownload', new BareDownload());
	registerNodeType('benchBareApiGet', new BareApiGet());
	registerNodeType('benchBareRangedDownload', new BareRangedDownload());
}
