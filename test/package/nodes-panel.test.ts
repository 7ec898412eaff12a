// What a user reads when searching "GridBank" in n8n's nodes panel, derived from the node
// descriptions the way n8n's editor derives it (editor-ui useActionsGeneration.ts, n8n 1.x and
// 2.x alike): a trigger named "<X>Trigger" is merged into node "<X>" when that node has actions,
// the merged entry takes the TRIGGER's description, and the trigger is listed beneath it as one
// action per option of its "Event" / "Trigger On" parameter ("On new <X> event", with no
// description, when it has none). The editor e2e (e2e/editor.e2e.test.js) checks the same texts
// in the real editor. Every node of the package is loaded, so a new trigger is held to this too.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { INodePropertyOptions, INodeType, INodeTypeDescription } from 'n8n-workflow';

const nodesDir = resolve(__dirname, '..', '..', 'nodes');

function nodeFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
		const path = join(dir, e.name);
		if (e.isDirectory()) return nodeFiles(path);
		return e.name.endsWith('.node.ts') ? [path] : [];
	});
}

/** Every node class the package has (each *.node.ts file's exported INodeType classes). */
function loadDescriptions(): INodeTypeDescription[] {
	return nodeFiles(nodesDir).flatMap((file) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const mod = require(file) as Record<string, unknown>;
		return Object.values(mod)
			.filter((c): c is new () => INodeType => typeof c === 'function')
			.map((C) => new C().description)
			.filter((d) => d?.name);
	});
}

interface PanelAction {
	displayName: string;
	description: string;
	trigger: boolean;
}
interface PanelEntry {
	name: string;
	description: string;
	actions: PanelAction[];
}

const isTrigger = (d: INodeTypeDescription) => d.group.includes('trigger');

/** n8n's triggersCategory: the trigger's events, or its generic placeholder. */
function triggerActions(d: INodeTypeDescription): PanelAction[] {
	const events = d.properties.find((p) =>
		['event', 'events', 'trigger on'].includes(p.displayName.toLowerCase()),
	);
	if (!events?.options)
		return [
			{
				displayName: `On new ${d.displayName.replace('Trigger', '').trimEnd()} event`,
				description: '',
				trigger: true,
			},
		];
	return (events.options as INodePropertyOptions[]).map((o) => ({
		displayName: o.action ?? `On ${o.name}`,
		description: o.description ?? '',
		trigger: true,
	}));
}

/** n8n's resourceCategories / operationsCategory: one action per operation. */
function nodeActions(d: INodeTypeDescription): PanelAction[] {
	return d.properties
		.filter((p) => p.name === 'operation' && p.options)
		.flatMap((p) => p.options as INodePropertyOptions[])
		.map((o) => ({
			displayName: o.action ?? o.name,
			description: o.description ?? '',
			trigger: false,
		}));
}

/** n8n's generateMergedNodesAndActions. */
function panelEntries(descriptions: INodeTypeDescription[]): PanelEntry[] {
	const entries: PanelEntry[] = descriptions
		.filter((d) => !isTrigger(d))
		.map((d) => ({ name: d.name, description: d.description, actions: nodeActions(d) }));
	for (const t of descriptions.filter(isTrigger)) {
		const app = entries.find((e) => e.name === t.name.replace('Trigger', ''));
		if (app && app.actions.length > 0) {
			app.actions.push(...triggerActions(t));
			app.description = t.description; // n8n: "default to trigger description"
		} else entries.push({ name: t.name, description: t.description, actions: triggerActions(t) });
	}
	return entries;
}

const descriptions = loadDescriptions();
const entries = panelEntries(descriptions);

test('every node of the package is loaded', () => {
	expect(descriptions.map((d) => d.name)).toEqual(
		expect.arrayContaining([
			'gridBankPartner',
			'gridBankEnterprise',
			'gridBankPartnerTrigger',
			'gridBankEnterpriseTrigger',
		]),
	);
});
const entry = (name: string) => entries.find((e) => e.name === name)!;

test('GridBank Partner reads as what it does (list licences, download URLs and masters), not as the trigger', () => {
	const partner = entry('gridBankPartner');
	expect(partner.description).toBe(
		'List licensed videos, get their download URLs and master files, or start a workflow when a video is licensed',
	);
	expect(partner.actions.filter((a) => !a.trigger).map((a) => a.displayName)).toEqual([
		'List licensed videos',
		'Get a download URL for a licensed video',
		'Copy a licensed master to S3-compatible storage',
	]);
});

test('the Partner Trigger is listed beneath it and says what it waits for: a newly licensed video', () => {
	expect(entry('gridBankPartner').actions.filter((a) => a.trigger)).toEqual([
		{
			displayName: 'On a newly licensed video',
			description:
				'Starts the workflow when your GridBank account (or its team owner) licenses a video',
			trigger: true,
		},
	]);
	expect(entries.find((e) => e.name === 'gridBankPartnerTrigger')).toBeUndefined();
});

test('GridBank Enterprise reads as what it does, its trigger beneath it waits for new matching footage', () => {
	const enterprise = entry('gridBankEnterprise');
	expect(enterprise.description).toMatch(/^Search the GridBank catalogue/);
	expect(enterprise.actions.filter((a) => a.trigger)).toEqual([
		{
			displayName: 'On new footage matching a search',
			description:
				'Starts the workflow when a video matching the search newly appears in the collection',
			trigger: true,
		},
	]);
	expect(entries.find((e) => e.name === 'gridBankEnterpriseTrigger')).toBeUndefined();
});

test("every entry of the package: an app with actions never reads as its trigger, and no trigger is left with n8n's generic event name", () => {
	for (const e of entries) {
		const label = `${e.name}: ${e.description}`;
		if (e.actions.some((a) => !a.trigger)) expect(label).not.toMatch(/: Starts the workflow/);
		for (const a of e.actions.filter((x) => x.trigger)) {
			expect(`${e.name}: ${a.displayName}`).not.toMatch(/: On new .* event$/);
			expect(a.description).not.toBe('');
		}
	}
});
