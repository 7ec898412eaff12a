// `npm run lint`: the checks n8n runs before it verifies a community package, as `n8n-node lint`
// (@n8n/node-cli's configs/eslint.ts) applies them: ESLint's and typescript-eslint's recommended
// rules, @n8n/eslint-plugin-community-nodes' `recommended` config (the n8n Cloud one: no
// restricted globals or imports, no runtime dependencies, pairedItem, NodeApiError, icons…) on
// the TypeScript sources and on package.json, and eslint-plugin-n8n-nodes-base's `community`
// rules on package.json, `credentials` rules on credentials/ and `nodes` rules on nodes/, with
// node-cli's own overrides. (node-cli also runs eslint-plugin-import-x's import checks; tsc
// already fails on an unresolved import, so that plugin is left out.)
// The scanner (scripts/scan.mjs) lints the same files with n8n's own scan configuration.
import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { globalIgnores } from 'eslint/config';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const communityRecommended = n8nCommunityNodesPlugin.configs.recommended;

export default tseslint.config(
	globalIgnores(['dist', 'node_modules', '.cache', '.tools', '.n8n-test']),
	{
		files: ['**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended, communityRecommended],
		rules: {
			'prefer-spread': 'off',
			'no-console': 'error',
		},
	},
	{
		plugins: { 'n8n-nodes-base': n8nNodesBase },
	},
	{
		files: ['package.json'],
		extends: [communityRecommended],
		rules: { ...n8nNodesBase.configs.community.rules },
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// As in node-cli: a community credential links to its own docs, not n8n's slugs.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			// As in node-cli: community-nodes' credential-password-field checks this more accurately.
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// As in node-cli: inputs/outputs use the NodeConnectionTypes enum, not the string "main".
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			// As in node-cli: GridBank's API has real maxima (Max Retries 10, Expires In 5 minutes).
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
);
