// Every text n8n keeps or shows of a failed run, for tests that look for what must not be in
// any of them (the API key): run data, items, the error's message, description, context,
// response and stack, and for a trigger its saved state.
import { pollTrigger, runEnterprise, runPartner } from './run-gridbank';
import type { NodeRun } from './run-node';

/** A failed trigger activation: the poll, the node's saved state and every text of its error. */
export function failedPollTexts(poll: { error?: unknown }, nodeState: unknown): string[] {
	const error = poll.error as Error & Record<string, unknown>;
	return [
		JSON.stringify(poll),
		JSON.stringify(nodeState ?? {}),
		String(error.message),
		String(error.description),
		JSON.stringify(error.context ?? {}),
		JSON.stringify(error.errorResponse ?? {}),
		JSON.stringify(error.messages ?? []),
		String(error.stack),
	];
}

/** An action node's run: its run data, items and error. */
export function runTexts(run: NodeRun): string[] {
	return [
		JSON.stringify(run.run),
		JSON.stringify(run.items),
		JSON.stringify(run.error ?? {}),
		String(run.error?.message),
		String(run.error?.description),
		String(run.error?.stack ?? ''),
	];
}

export type GridBankNode = 'gridBankPartner' | 'gridBankEnterprise' | 'gridBankPartnerTrigger';

/**
 * Runs `node` where it must fail (the trigger: its activation; an action node: without, then
 * with Continue On Fail) and returns every text n8n keeps or shows of it.
 */
export async function failingRunTexts(
	node: GridBankNode,
	parameters: Record<string, unknown>,
	apiKey: string,
): Promise<string[]> {
	if (node === 'gridBankPartnerTrigger') {
		const trigger = pollTrigger(parameters, { apiKey });
		const poll = await trigger.activate();
		expect(poll.error).toBeDefined();
		return failedPollTexts(poll, trigger.nodeState);
	}
	const texts: string[] = [];
	for (const continueOnFail of [false, true]) {
		const run = await (node === 'gridBankPartner' ? runPartner : runEnterprise)(parameters, {
			apiKey,
			continueOnFail,
		});
		expect(run.error ?? run.items[0]?.json.error).toBeDefined();
		texts.push(...runTexts(run));
	}
	return texts;
}
