// What n8n 2.41's AI Agent (version 3) shows the model when our node is its tool and returns a
// file (docs/ai-agents.md). The agent asks the engine to run the tool node as an ordinary node;
// the engine files that node's output under `ai_tool` (WorkflowExecute.rewireOutputLog) and hands
// it back as an action response (collectSubNodeResults); the agent's buildSteps turns it into
// the model's observation. Here our node runs for real in the engine with Download File on, its
// task data is filed the way those two engine functions do, and n8n's own buildSteps (from the
// n8n installed in .cache/n8n by the e2e suite, the demo or `npm run dev`) reads it.
import { DEMO_PARTNER_KEY } from '../../simulator';
import { installedN8nFile } from '../harness/ai-tools';
import { runPartner } from '../harness/run-gridbank';
import { useSimulator } from '../harness/simulator';

const sim = useSimulator();

const buildStepsFile = installedN8nFile(
	'@n8n',
	'n8n-nodes-langchain',
	'dist',
	'utils',
	'agent-execution',
	'buildSteps.js',
);

type BuildSteps = (
	response: unknown,
	itemIndex: number,
) => Array<{ action: { tool: string }; observation: string }>;

(buildStepsFile ? test : test.skip)(
	"n8n's Tools Agent gives the model the URL and the file's details, never the file",
	async () => {
		const { buildSteps } = require(buildStepsFile as string) as { buildSteps: BuildSteps };
		const videoKey = sim().partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
		const run = await runPartner({ operation: 'getDownloadUrl', videoKey, download: true });
		expect(run.items[0].binary?.data).toBeDefined();

		const toolTask = { ...run.task, data: { ai_tool: run.task.data?.main } };
		const action = {
			actionType: 'ExecutionNodeAction',
			nodeName: 'GridBank_Partner_Tool',
			input: { Video_Key: videoKey },
			type: 'ai_tool',
			id: 'call_1',
			metadata: { itemIndex: 0 },
		};
		const [step] = buildSteps({ actionResponses: [{ action, data: toolTask }] }, 0);

		const seen = JSON.parse(step.observation) as Array<Record<string, unknown>>;
		expect(seen).toEqual([
			expect.objectContaining({
				video_key: videoKey,
				url: expect.any(String),
				fileName: expect.any(String),
				mimeType: expect.any(String),
				fileSize: run.items[0].json.fileSize,
			}),
		]);
		expect(step.observation).not.toMatch(/"binary"|"data":\{|base64|filesystem-v2/);
	},
);
