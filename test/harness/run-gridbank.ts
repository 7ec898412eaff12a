// One helper per node, against the test file's simulator (useSimulator) with the demo keys
// unless a test says otherwise: runPartner, runEnterprise, pollTrigger.
import {
	DEMO_ENTERPRISE_KEY,
	DEMO_PARTNER_KEY,
	type LoggedRequest,
	type Simulator,
} from '../../simulator';
import { PollingTrigger, type PollingTriggerOptions } from './poll-node';
import { runNode, type NodeRun, type RunNodeOptions } from './run-node';
import { currentSimulator } from './simulator';

export interface GridBankRunOptions
	extends Pick<
		RunNodeOptions,
		'input' | 'continueOnFail' | 'errorOutput' | 'onStart' | 'settings'
	> {
	/** Default: the file's first useSimulator(). */
	sim?: Simulator;
	/** Default: the simulator's demo key for the node's API. */
	apiKey?: string;
	/** The credential's Base URL; default: the simulator's. */
	baseUrl?: string;
	/** More credentials by type (the S3-Compatible Storage credential of a copy). */
	credentials?: Record<string, Record<string, unknown>>;
}

export interface GridBankRun extends NodeRun {
	/** API requests the simulator logged during the run, in order. */
	calls: LoggedRequest[];
	/** Storage (and redirect) requests logged during the run. */
	storage: LoggedRequest[];
}

async function runGridBank(
	type: 'gridBankPartner' | 'gridBankEnterprise',
	parameters: Record<string, unknown>,
	options: GridBankRunOptions,
): Promise<GridBankRun> {
	const sim = options.sim ?? currentSimulator();
	const credential = type === 'gridBankPartner' ? 'gridBankPartnerApi' : 'gridBankEnterpriseApi';
	const apiKey =
		options.apiKey ?? (type === 'gridBankPartner' ? DEMO_PARTNER_KEY : DEMO_ENTERPRISE_KEY);
	const from = sim.log.length;
	const run = await runNode({
		type,
		parameters,
		credentials: {
			...(options.credentials as RunNodeOptions['credentials']),
			[credential]: { apiKey, baseUrl: options.baseUrl ?? sim.baseUrl },
		},
		input: options.input,
		continueOnFail: options.continueOnFail,
		errorOutput: options.errorOutput,
		onStart: options.onStart,
		settings: options.settings,
	});
	const logged = sim.log.slice(from);
	return {
		...run,
		calls: logged.filter((entry) => entry.target === 'api'),
		storage: logged.filter((entry) => entry.target !== 'api'),
	};
}

/** Runs GridBank Partner once. */
export const runPartner = (parameters: Record<string, unknown>, options: GridBankRunOptions = {}) =>
	runGridBank('gridBankPartner', parameters, options);

/** Runs GridBank Enterprise once. */
export const runEnterprise = (
	parameters: Record<string, unknown>,
	options: GridBankRunOptions = {},
) => runGridBank('gridBankEnterprise', parameters, options);

export type PollTriggerOptions = Pick<GridBankRunOptions, 'sim' | 'apiKey' | 'baseUrl'> &
	Partial<Omit<PollingTriggerOptions, 'type' | 'parameters'>>;

const open: PollingTrigger[] = [];
afterEach(async () => {
	for (const trigger of open.splice(0)) await trigger.close();
});

/** A polling trigger on the test file's simulator with its API's demo key unless told, closed after the test. */
function openTrigger(
	type: 'gridBankPartnerTrigger' | 'gridBankEnterpriseTrigger',
	parameters: Record<string, unknown>,
	options: PollTriggerOptions,
): PollingTrigger {
	const partner = type === 'gridBankPartnerTrigger';
	const {
		sim = currentSimulator(),
		apiKey = partner ? DEMO_PARTNER_KEY : DEMO_ENTERPRISE_KEY,
		baseUrl = sim.baseUrl,
		credentials: more,
		...extra
	} = options;
	const credential = partner ? 'gridBankPartnerApi' : 'gridBankEnterpriseApi';
	const trigger = new PollingTrigger({
		type,
		parameters,
		// More credentials by type (the S3-Compatible Storage credential of Copy to Storage).
		credentials: { ...more, [credential]: { apiKey, baseUrl } },
		...extra,
	});
	open.push(trigger);
	return trigger;
}

/** A GridBank Partner Trigger (not yet activated), closed after the test. */
export const pollTrigger = (
	parameters: Record<string, unknown> = {},
	options: PollTriggerOptions = {},
) => openTrigger('gridBankPartnerTrigger', parameters, options);

/** A GridBank Enterprise Trigger (not yet activated) on the Enterprise demo key, closed after the test. */
export const pollEnterpriseTrigger = (
	parameters: Record<string, unknown> = {},
	options: PollTriggerOptions = {},
) => openTrigger('gridBankEnterpriseTrigger', parameters, options);
