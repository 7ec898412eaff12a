// The credential as the client uses it, checked before the first request so a malformed key or
// Base URL never goes out.
import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

import type { ApiProfile } from './api-profile';
import { checkBaseUrl } from './base-url';
import { inputError } from './errors';
import { type Secrets, secretsOf } from './scrub';

export type GridBankContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface Credential {
	apiKey: string;
	baseUrl: string;
	/** The forms of the key scrubbed from everything servers send back. */
	secrets: Secrets;
}

export async function readCredential(
	ctx: GridBankContext,
	profile: ApiProfile,
	itemIndex: number,
): Promise<Credential> {
	const raw = await ctx.getCredentials(profile.credentialType, itemIndex);
	const apiKey = String(raw.apiKey ?? '').trim();
	const node = ctx.getNode();
	if (!apiKey)
		throw inputError(
			node,
			`The ${profile.label} key is empty`,
			'Paste your GridBank API key into the credential.',
			itemIndex,
		);
	if (profile.keyPattern && !profile.keyPattern.test(apiKey))
		throw inputError(
			node,
			`The ${profile.label} key is not in GridBank's format`,
			`${profile.keyFormatHint ?? ''} Copy the whole key from GridBank account settings into the credential.`.trim(),
			itemIndex,
		);
	const base = checkBaseUrl(raw.baseUrl);
	if (!base.ok) throw inputError(node, base.message, base.description, itemIndex);
	return { apiKey, baseUrl: base.baseUrl, secrets: secretsOf(apiKey) };
}
