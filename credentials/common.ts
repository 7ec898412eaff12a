// What both GridBank credentials share: the key field, the base URL, Bearer auth and a
// test request that identifies itself (GridBank's edge blocks anonymous traffic).
import type {
	IAuthenticateGeneric,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialTestRequest,
	INodeProperties,
} from 'n8n-workflow';

import type { ApiProfile } from '../nodes/shared/transport/api-profile';
import { USER_AGENT } from '../nodes/shared/version';

export const ICON = { light: 'file:gridbank.svg', dark: 'file:gridbank.dark.svg' } as const;

export const apiKeyProperty = (description: string, placeholder?: string): INodeProperties => ({
	displayName: 'API Key',
	name: 'apiKey',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	required: true,
	...(placeholder ? { placeholder } : {}),
	description,
});

export const baseUrlProperty: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: 'https://api2.gridbank.io',
	required: true,
	description:
		'Leave as is for production; use the staging address GridBank gave you to test. https:// only (http:// only for localhost), without a user name, password, query string or fragment.',
};

// Pasted keys often carry a trailing space or newline: trimmed here and in the nodes.
export const bearerAuth: IAuthenticateGeneric = {
	type: 'generic',
	properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey.trim()}}' } },
};

/** https to any host, or http to localhost, 127.0.0.0/8 or [::1]; no user info, query or fragment. */
const STRICT_BASE_URL = String.raw`/^(https:\/\/[^\/?#@\s]+|http:\/\/(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?)(\/[^?#\s]*)?$/i`;

const REFUSED_SCHEME = 'base-url-must-be-https-without-user-query-or-fragment';

/** The redirect statuses the test request refuses to follow (see testRequest). */
const REDIRECTS = [301, 302, 303, 307, 308];

/** A key check for the test request: GridBank's key shape and what to tell a user whose key is not in it. */
export interface KeyCheck {
	pattern: RegExp;
	hint: string;
}

/**
 * A test request runs no code and n8n's expressions swallow what they throw, so a key not in
 * GridBank's shape turns the request into a data: URL, which the HTTP client answers itself
 * (nothing is sent), and a rule recognises that answer by its length (the same whether n8n hands
 * it over as bytes or text; GridBank's JSON object answer has no length) and shows the hint.
 */
const KEY_REFUSED = 'gridbank-test-refused-a-key-not-in-gridbank-format';
const keyOk = (key: KeyCheck) => `${key.pattern}.test(String($credentials.apiKey).trim())`;

const keyRules = (label: string, key?: KeyCheck): IAuthenticateRuleResponseSuccessBody[] =>
	key
		? [
				{
					type: 'responseSuccessBody',
					properties: {
						key: 'length',
						value: KEY_REFUSED.length,
						message: `The ${label} key is not in GridBank's format, so it was not sent. ${key.hint} Copy the whole key from GridBank account settings.`,
					},
				},
			]
		: [];

/**
 * The connection test. n8n follows a redirect of this request with the Authorization header,
 * to any host, unless redirects are off: `disableFollowRedirect` is honoured by every n8n
 * version (the newer cross-origin option is ignored by n8n 1.x), so a redirect fails the test
 * with a message instead of carrying the key elsewhere.
 */
/** The API's test request, all of it from the API's profile: path, query, key shape and hint. */
export function testRequest(profile: ApiProfile): ICredentialTestRequest {
	const { path, qs } = profile.paths.credentialTest;
	const { keyPattern: pattern, keyFormatHint: hint } = profile;
	const key = pattern && hint ? { pattern, hint } : undefined;
	return testOf(profile.label, profile.pathPrefix + path, qs, key);
}

const testOf = (
	label: string,
	url: string,
	qs: ICredentialTestRequest['request']['qs'] | undefined,
	key: KeyCheck | undefined,
): ICredentialTestRequest => ({
	request: {
		// The Base URL rules of nodes/shared/transport/base-url.ts, as far as an expression can hold them: a
		// Base URL they refuse becomes an address with a scheme no HTTP client supports, so the
		// test fails before anything is sent, the scheme saying why.
		baseURL: `={{ ${key ? `!${keyOk(key)} ? "" : ` : ''}${STRICT_BASE_URL}.test($credentials.baseUrl.trim()) ? $credentials.baseUrl.trim().replace(/\\/+$/, "") : "${REFUSED_SCHEME}:" }}`,
		url: key
			? `={{ ${keyOk(key)} ? ${JSON.stringify(url)} : "data:text/plain,${KEY_REFUSED}" }}`
			: url,
		...(qs ? { qs } : {}),
		headers: { 'User-Agent': USER_AGENT },
		disableFollowRedirect: true,
	},
	// n8n's type keeps status rules and body rules in separate lists; its tester reads one mixed
	// list rule by rule, on every version.
	rules: [
		...keyRules(label, key),
		...REDIRECTS.map((value) => ({
			type: 'responseCode' as const,
			properties: {
				value,
				message: `GridBank redirected the test request to another address (HTTP ${value}); the key was not sent there. Check that the Base URL is GridBank's own API address, e.g. https://api2.gridbank.io.`,
			},
		})),
		{
			type: 'responseCode',
			properties: {
				value: 401,
				message: `The ${label} key is missing, malformed or revoked. Create a new key in GridBank and paste it here.`,
			},
		},
	] as unknown as ICredentialTestRequest['rules'],
});
