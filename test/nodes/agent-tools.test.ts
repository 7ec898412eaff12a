// Every action operation as an AI Agent's tool, built and called by n8n-core itself: a workflow
// with an agent (test.agent) whose tool is our node, its parameters handed to the model the way
// the editor does it. Checked: what the model is shown (tool name, description, JSON schema:
// names, types, required, descriptions) and that calling the tool runs the operation.
import type { INodeProperties, INodeType } from 'n8n-workflow';
import { NodeHelpers, nodeNameToToolName } from 'n8n-workflow';

import { GridBankEnterprise } from '../../nodes/GridBankEnterprise/GridBankEnterprise.node';
import { GridBankPartner } from '../../nodes/GridBankPartner/GridBankPartner.node';
import {
	asAiTool,
	installedConvertNodeToAiTool,
	runAgent,
	toolNodeParameters,
	toolType,
	type AgentRun,
} from '../harness/ai-tools';
import { useSimulator } from '../harness/simulator';
import { DEMO_ENTERPRISE_KEY, DEMO_PARTNER_KEY } from '../../simulator';
import { addKeywordVideos } from './GridBankEnterprise/enterprise-harness';

const sim = useSimulator();

const tools = { partner: toolType('gridBankPartner'), enterprise: toolType('gridBankEnterprise') };
const credentials = {
	partner: () => ({ gridBankPartnerApi: { apiKey: DEMO_PARTNER_KEY, baseUrl: sim().baseUrl } }),
	enterprise: () => ({
		gridBankEnterpriseApi: { apiKey: DEMO_ENTERPRISE_KEY, baseUrl: sim().baseUrl },
	}),
};

interface Case {
	label: string;
	node: keyof typeof tools;
	/** What the user set on the tool node. */
	chosen: Record<string, unknown>;
	/** Parameters the user lets the model define. */
	model: string[];
	/** The tool name n8n derives (from the node's default name). */
	name: string;
	/** Schema properties and their JSON types. */
	schema: Record<string, string>;
	args: () => Record<string, unknown>;
	check: (output: Array<Record<string, unknown>>) => void;
}

const newestKey = () => sim().partnerLicences(DEMO_PARTNER_KEY)[0].video_key;

const cases: Case[] = [
	{
		label: 'Partner: List Licensed Content',
		node: 'partner',
		chosen: { operation: 'listContent' },
		model: ['returnAll', 'limit'],
		name: 'List_licensed_videos_in_GridBank_Partner',
		schema: { Return_All: 'boolean', Limit: 'number' },
		args: () => ({ Return_All: false, Limit: 3 }),
		check: (output) =>
			expect(output.map((video) => video.video_key)).toEqual(
				sim()
					.partnerLicences(DEMO_PARTNER_KEY)
					.slice(0, 3)
					.map((l) => l.video_key),
			),
	},
	{
		label: 'Partner: Get Download URL',
		node: 'partner',
		chosen: { operation: 'getDownloadUrl' },
		model: ['videoKey'],
		name: 'Get_a_download_URL_for_a_licensed_video_in_GridBank_Partner',
		schema: { Video_Key: 'string' },
		args: () => ({ Video_Key: newestKey() }),
		check: (output) =>
			expect(output).toEqual([
				{
					video_key: newestKey(),
					url: expect.stringMatching(/^http/),
					expires_at: expect.any(Number),
				},
			]),
	},
	{
		label: 'Enterprise: Search',
		node: 'enterprise',
		chosen: { resource: 'video', operation: 'search' },
		model: ['query', 'returnAll', 'limit'],
		name: 'Search_videos_by_keywords_in_GridBank_Enterprise',
		schema: { Query: 'string', Return_All: 'boolean', Limit: 'number' },
		args: () => ({ Query: 'drone', Return_All: false, Limit: 2 }),
		check: (output) => {
			expect(output).toHaveLength(2);
			for (const video of output)
				expect(video).toMatchObject({ id: expect.any(String), search_id: expect.any(String) });
		},
	},
	{
		label: 'Enterprise: Get Video',
		node: 'enterprise',
		chosen: { resource: 'video', operation: 'get' },
		model: ['videoId'],
		name: 'Get_video_details_in_GridBank_Enterprise',
		schema: { Video_ID: 'string' },
		args: () => ({ Video_ID: 'ocean/aerial_shot-0001' }),
		check: (output) =>
			expect(output[0]).toMatchObject({ id: 'ocean/aerial_shot-0001', title: expect.any(String) }),
	},
	{
		label: 'Enterprise: Get Download',
		node: 'enterprise',
		chosen: { resource: 'video', operation: 'getDownload' },
		model: ['videoId'],
		name: 'Get_a_download_URL_for_a_video_in_GridBank_Enterprise',
		schema: { Video_ID: 'string' },
		args: () => ({ Video_ID: 'ocean/aerial_shot-0001' }),
		check: (output) =>
			expect(output[0]).toMatchObject({
				video_id: 'ocean/aerial_shot-0001',
				url: expect.stringMatching(/^http/),
			}),
	},
	{
		label: 'Enterprise: Get Usage',
		node: 'enterprise',
		chosen: { resource: 'usage', operation: 'get' },
		model: [],
		name: 'Get_account_usage_in_GridBank_Enterprise',
		schema: {},
		args: () => ({}),
		check: (output) =>
			expect(output[0]).toMatchObject({
				tier: expect.any(String),
				downloads_this_period: expect.any(Number),
			}),
	},
];

const agent = (c: Case, chosen = c.chosen, args = c.args()): Promise<AgentRun> =>
	runAgent({
		tool: tools[c.node],
		parameters: toolNodeParameters(tools[c.node], chosen as never, c.model),
		credentials: credentials[c.node](),
		calls: [{ args }],
	});

/** The operation's action, as the node's operation list gives it. */
function actionOf(type: INodeType, chosen: Record<string, unknown>): string {
	const operation = type.description.properties.find(
		(p) =>
			p.name === 'operation' &&
			(p.displayOptions?.show?.resource ?? []).includes((chosen.resource ?? 'video') as string),
	);
	const option = operation?.options?.find((o) => 'value' in o && o.value === chosen.operation);
	return String(option && 'action' in option ? option.action : '');
}

describe.each(cases)('$label as a tool', (c) => {
	let shown: AgentRun;
	beforeAll(async () => {
		shown = await agent(c);
	});

	test('the tool is named after the operation, within the 64 characters models accept', () => {
		const [tool] = shown.tools;
		expect(tool.name).toBe(c.name);
		expect(tool.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
		// Not cut short: the whole default node name made it into the tool name.
		const nodeName = NodeHelpers.makeNodeName(
			toolNodeParameters(tools[c.node], c.chosen as never, c.model),
			tools[c.node].description,
		);
		expect(nodeNameToToolName(nodeName)).toBe(nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_'));
	});

	test('the description says what the operation does, in which service', () => {
		const type = tools[c.node];
		const action = actionOf(type, c.chosen);
		expect(action).toMatch(/^(List|Get|Search) [a-z]/);
		expect(shown.tools[0].description).toBe(`${action} in ${type.description.defaults.name}`);
	});

	test('the schema: one required field per parameter the model defines, typed and described', () => {
		const { schema } = shown.tools[0];
		expect(schema.type).toBe('object');
		const properties = schema.properties ?? {};
		expect(
			Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, value.type])),
		).toEqual(c.schema);
		expect([...(schema.required ?? [])].sort()).toEqual(Object.keys(c.schema).sort());
		const type = tools[c.node].description;
		const values = toolNodeParameters(tools[c.node], c.chosen as never, c.model);
		const shownHere = type.properties.filter((p) =>
			NodeHelpers.displayParameter(values, p, { typeVersion: 1 }, type),
		);
		for (const [key, property] of Object.entries(properties)) {
			const parameter = shownHere.find((p) => p.displayName.replace(/[^a-zA-Z0-9-]/g, '_') === key);
			expect(property.description).toBe(parameter?.description);
			expect(property.description?.length).toBeGreaterThan(20);
		}
	});

	test('calling the tool runs the operation and returns its items', async () => {
		const [result] = shown.results;
		expect(result.error).toBeUndefined();
		c.check(JSON.parse(String(result.output)) as Array<Record<string, unknown>>);
	});
});

test('tool names differ across all operations of both nodes', () => {
	expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
});

test('Search finds what the model asked for', async () => {
	const { keyword, ids } = addKeywordVideos(sim(), 3);
	const search = cases.find((c) => c.label === 'Enterprise: Search') as Case;
	const run = await agent(search, search.chosen, { Query: keyword, Return_All: true, Limit: 1 });
	expect(
		(JSON.parse(String(run.results[0].output)) as Array<{ id: string }>).map((video) => video.id),
	).toEqual(ids);
});

test('a wrong argument comes back as an error the model can act on, before any request', async () => {
	const get = cases.find((c) => c.label === 'Enterprise: Get Video') as Case;
	sim().clearLog();
	const run = await agent(get, get.chosen, { Video_ID: 'a video about dogs' });
	expect(run.results[0].error).toMatch(/Video ID "a video about dogs" is not a valid video id/);
	expect(run.results[0].error).toMatch(/Details: Video ids use only letters, digits/);
	expect(sim().log.filter((entry) => entry.target === 'api')).toEqual([]);

	const download = cases.find((c) => c.label === 'Partner: Get Download URL') as Case;
	const unknown = await agent(download, download.chosen, { Video_Key: 'no-such-video' });
	expect(unknown.results[0].error).toMatch(/No video "no-such-video"/);
	expect(unknown.results[0].error).toMatch(/List Licensed Content/);
});

describe('operations whose output can be binary say so', () => {
	const downloadOperations = [
		{ type: new GridBankPartner(), resource: 'video', operation: 'getDownloadUrl' },
		{ type: new GridBankEnterprise(), resource: 'video', operation: 'getDownload' },
	];

	test.each(downloadOperations)(
		'$operation: the operation and its Download File option',
		({ type, resource, operation }) => {
			const list = type.description.properties.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
			);
			const option = list?.options?.find((o) => 'value' in o && o.value === operation) as {
				description: string;
			};
			expect(option.description).toMatch(/binary data/);
			const download = type.description.properties.find(
				(p) => p.name === 'download' && p.displayOptions?.show?.operation?.includes(operation),
			) as INodeProperties;
			expect(download.description).toMatch(/binary data/);
			expect(download.description).toMatch(
				/AI agent gets the file's name, type and size, never the file/,
			);
		},
	);

	test('an agent that downloads gets the URL and the file details, and no binary', async () => {
		const download = cases.find((c) => c.label === 'Partner: Get Download URL') as Case;
		const run = await agent(download, { ...download.chosen, download: true });
		const [item] = JSON.parse(String(run.results[0].output)) as Array<Record<string, unknown>>;
		expect(item).toMatchObject({
			video_key: newestKey(),
			url: expect.any(String),
			fileName: expect.any(String),
			fileSize: expect.any(Number),
		});
		expect(String(run.results[0].output)).not.toMatch(/"binary"|"data":\{/);
	});
});

test('every parameter a user can hand to the model has a description', () => {
	for (const type of [new GridBankPartner(), new GridBankEnterprise()]) {
		const walk = (properties: INodeProperties[], path: string) => {
			for (const property of properties) {
				const where = `${type.description.name} ${path}${property.name}`;
				// The editor offers "let the model define" on every input except options lists and notices.
				const offered =
					!['options', 'notice', 'collection', 'fixedCollection', 'hidden'].includes(
						property.type,
					) && !property.noDataExpression;
				if (offered)
					expect({ where, description: property.description ?? '' }).toEqual({
						where,
						description: expect.stringMatching(/\S{3,}.{20,}/),
					});
				if (property.type === 'collection')
					walk(property.options as INodeProperties[], `${path}${property.name}.`);
			}
		};
		walk(type.description.properties, '');
	}
});

const realConvert = installedConvertNodeToAiTool();
(realConvert ? test : test.skip)(
	"the tool type matches n8n's own convertNodeToAiTool (n8n installed in .cache/n8n)",
	() => {
		for (const type of [new GridBankPartner(), new GridBankEnterprise()]) {
			const ours = asAiTool({ description: structuredClone(type.description) }).description;
			const theirs = (realConvert as typeof asAiTool)({
				description: structuredClone(type.description),
			}).description;
			expect(JSON.parse(JSON.stringify(ours))).toEqual(JSON.parse(JSON.stringify(theirs)));
		}
	},
);
