// The node and credential types the in-process engine knows: ours, as n8n would load them
// from the package, plus the two small test nodes.
import type {
	ICredentialType,
	IDataObject,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';

import { GridBankEnterpriseApi } from '../../credentials/GridBankEnterpriseApi.credentials';
import { GridBankPartnerApi } from '../../credentials/GridBankPartnerApi.credentials';
import { GridBankS3StorageApi } from '../../credentials/GridBankS3StorageApi.credentials';
import { GridBankEnterprise } from '../../nodes/GridBankEnterprise/GridBankEnterprise.node';
import { GridBankEnterpriseTrigger } from '../../nodes/GridBankEnterpriseTrigger/GridBankEnterpriseTrigger.node';
import { GridBankPartner } from '../../nodes/GridBankPartner/GridBankPartner.node';
import { GridBankPartnerTrigger } from '../../nodes/GridBankPartnerTrigger/GridBankPartnerTrigger.node';
import { TestAgent, TestItems, TestManualTrigger } from './test-nodes';

const types: Record<string, INodeType> = {
	'test.manualTrigger': new TestManualTrigger(),
	'test.items': new TestItems(),
	'test.agent': new TestAgent(),
	'n8n-nodes-gridbank.gridBankPartner': new GridBankPartner(),
	'n8n-nodes-gridbank.gridBankPartnerTrigger': new GridBankPartnerTrigger(),
	'n8n-nodes-gridbank.gridBankEnterprise': new GridBankEnterprise(),
	'n8n-nodes-gridbank.gridBankEnterpriseTrigger': new GridBankEnterpriseTrigger(),
};

/** Registers a node type (used as the package grows: Enterprise, Trigger). */
export function registerNodeType(name: string, type: INodeType): void {
	types[`n8n-nodes-gridbank.${name}`] = type;
}

export const nodeTypes: INodeTypes = {
	getByName: (name: string): INodeType | IVersionedNodeType => {
		const type = types[name];
		if (!type) throw new Error(`unknown node type ${name}`);
		return type;
	},
	getByNameAndVersion: (name: string): INodeType => {
		const type = types[name];
		if (!type) throw new Error(`unknown node type ${name}`);
		return type;
	},
	getKnownTypes: (): IDataObject => ({}),
};

export const credentialTypes: Record<string, ICredentialType> = {
	gridBankPartnerApi: new GridBankPartnerApi(),
	gridBankEnterpriseApi: new GridBankEnterpriseApi(),
	gridBankS3StorageApi: new GridBankS3StorageApi(),
};
