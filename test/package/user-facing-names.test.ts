// The names saved workflows and agents depend on, for all three nodes: node types, credential
// names, every parameter's internal name (nested ones as a path) and every option value. A
// source reshape must leave this list exactly as it is.
import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { GridBankEnterprise } from '../../nodes/GridBankEnterprise/GridBankEnterprise.node';
import { GridBankEnterpriseTrigger } from '../../nodes/GridBankEnterpriseTrigger/GridBankEnterpriseTrigger.node';
import { GridBankPartner } from '../../nodes/GridBankPartner/GridBankPartner.node';
import { GridBankPartnerTrigger } from '../../nodes/GridBankPartnerTrigger/GridBankPartnerTrigger.node';

type Option = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** "path" for a parameter, "path=value" for an option value; sorted and de-duplicated. */
function names(properties: Option[], prefix = ''): string[] {
	const out = new Set<string>();
	for (const p of properties) {
		if ('value' in p) {
			out.add(`${prefix}=${String(p.value)}`);
			continue;
		}
		const path = prefix ? `${prefix}.${p.name}` : p.name;
		if ('type' in p && p.type === 'notice') continue;
		out.add(path);
		const nested = ('options' in p && p.options) || ('values' in p && p.values) || [];
		for (const name of names(nested as Option[], path)) out.add(name);
		for (const mode of ('modes' in p && p.modes) || []) out.add(`${path}#${mode.name}`);
	}
	return [...out].sort();
}

const summary = (d: INodeTypeDescription) => ({
	name: d.name,
	credentials: d.credentials?.map((c) => c.name),
	parameters: names(d.properties),
});

test('GridBank Partner', () => {
	expect(summary(new GridBankPartner().description)).toEqual(PARTNER);
});

test('GridBank Enterprise', () => {
	expect(summary(new GridBankEnterprise().description)).toEqual(ENTERPRISE);
});

test('GridBank Partner Trigger', () => {
	expect(summary(new GridBankPartnerTrigger().description)).toEqual(TRIGGER);
});

test('GridBank Enterprise Trigger', () => {
	expect(summary(new GridBankEnterpriseTrigger().description)).toEqual(ENTERPRISE_TRIGGER);
});

test('list-search methods the video pickers name', () => {
	expect(Object.keys(new GridBankPartner().methods.listSearch)).toEqual(['searchLicensedVideos']);
	expect(Object.keys(new GridBankEnterprise().methods.listSearch)).toEqual(['searchVideos']);
});

// The pinned lists (generated once from the tree before the reshape; edit only on purpose).
const PARTNER = {
	name: 'gridBankPartner',
	credentials: ['gridBankPartnerApi', 'gridBankS3StorageApi'],
	parameters: [
		'binaryPropertyName',
		'bucket',
		'download',
		'ifExists',
		'ifExists=fail',
		'ifExists=overwrite',
		'ifExists=skip',
		'key',
		'limit',
		'operation',
		'operation=copyToStorage',
		'operation=getDownloadUrl',
		'operation=listContent',
		'options',
		'options.maxRetries',
		'options.outputFormat',
		'options.outputFormat=api',
		'options.outputFormat=video',
		'options.parallelConnections',
		'options.purchasedAfter',
		'resource',
		'resource=video',
		'returnAll',
		'videoKey',
		'videoKey#id',
		'videoKey#list',
	],
};

const ENTERPRISE = {
	name: 'gridBankEnterprise',
	credentials: ['gridBankEnterpriseApi', 'gridBankS3StorageApi'],
	parameters: [
		'binaryPropertyName',
		'bucket',
		'download',
		'expiresIn',
		'filters',
		'filters.durationMax',
		'filters.durationMin',
		'filters.sort',
		'filters.sort=popular',
		'filters.sort=recent',
		'filters.sort=relevant',
		'filters.theme',
		'ifExists',
		'ifExists=fail',
		'ifExists=overwrite',
		'ifExists=skip',
		'key',
		'limit',
		'operation',
		'operation=copyToStorage',
		'operation=get',
		'operation=getDownload',
		'operation=search',
		'options',
		'options.maxRetries',
		'options.outputFormat',
		'options.outputFormat=api',
		'options.outputFormat=video',
		'options.parallelConnections',
		'query',
		'resource',
		'resource=usage',
		'resource=video',
		'returnAll',
		'searchId',
		'videoId',
		'videoId#id',
		'videoId#list',
	],
};

const TRIGGER = {
	name: 'gridBankPartnerTrigger',
	credentials: ['gridBankPartnerApi', 'gridBankS3StorageApi'],
	parameters: [
		'binaryPropertyName',
		'bucket',
		'copyToStorage',
		'download',
		'event',
		'event=videoLicensed',
		'ifExists',
		'ifExists=fail',
		'ifExists=overwrite',
		'ifExists=skip',
		'keyPrefix',
		'options',
		'options.includeExisting',
		'options.maxExisting',
		'options.maxRetries',
		'options.outputFormat',
		'options.outputFormat=api',
		'options.outputFormat=video',
		'options.parallelConnections',
	],
};

const ENTERPRISE_TRIGGER = {
	name: 'gridBankEnterpriseTrigger',
	credentials: ['gridBankEnterpriseApi', 'gridBankS3StorageApi'],
	parameters: [
		'binaryPropertyName',
		'bucket',
		'copyToStorage',
		'download',
		'event',
		'event=newMatchingVideo',
		'filters',
		'filters.durationMax',
		'filters.durationMin',
		'filters.theme',
		'ifExists',
		'ifExists=fail',
		'ifExists=overwrite',
		'ifExists=skip',
		'keyPrefix',
		'options',
		'options.includeExisting',
		'options.maxExisting',
		'options.maxRetries',
		'options.outputFormat',
		'options.outputFormat=api',
		'options.outputFormat=video',
		'options.parallelConnections',
		'query',
	],
};
