// Pure: GridBank's error bodies read (json-in-slices.ts, api-message.ts) and mapped from
// status + body to the message a no-code user sees (errors.ts), for both APIs. No engine, no HTTP.
import type { INode } from 'n8n-workflow';

import { readApiError } from '../../../../nodes/shared/transport/api-message';
import { parseBodyInSlices } from '../../../../nodes/shared/transport/json-in-slices';
import { ENTERPRISE } from '../../../../nodes/GridBankEnterprise/transport/profile';
import { PARTNER } from '../../../../nodes/GridBankPartner/transport/profile';
import {
	apiError,
	atItem,
	connectionError,
	notJsonError,
} from '../../../../nodes/shared/transport/errors';
import { failureCause } from '../../../../nodes/shared/transport/failure-cause';

const node: INode = {
	id: 'n',
	name: 'GridBank',
	type: 'n8n-nodes-gridbank.gridBankPartner',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const ctx = { itemIndex: 0, retries: 0 };

describe('parseBodyInSlices', () => {
	test('JSON text is parsed; other text, or JSON cut short, stays text', async () => {
		expect(await parseBodyInSlices('{"detail":"x"}')).toEqual({ detail: 'x' });
		expect(await parseBodyInSlices('[1,2]')).toEqual([1, 2]);
		expect(await parseBodyInSlices('<html>Bad gateway</html>')).toBe('<html>Bad gateway</html>');
		const cut = `{"detail":"${'x'.repeat(300_000)}`;
		expect(await parseBodyInSlices(cut)).toBe(cut);
	});
});

describe('readApiError', () => {
	test.each([
		[
			'the Partner envelope',
			{ detail: { error: { code: 'not_licensed', message: 'Not yours' } } },
			{ code: 'not_licensed', message: 'Not yours' },
		],
		[
			'an envelope with non-string fields',
			{ detail: { error: { code: 7, message: null } } },
			{ code: undefined, message: undefined },
		],
		[
			'the Enterprise detail string',
			{ detail: 'Subscription inactive' },
			{ message: 'Subscription inactive' },
		],
		['a top-level message', { message: 'Oops' }, { message: 'Oops' }],
		['an object with nothing readable', { error: true }, {}],
		['empty text', '   ', {}],
		['a number', 42, {}],
		['null', null, {}],
	])('%s', (_label, body, expected) => expect(readApiError(body)).toEqual(expected));

	test('422: one "loc: msg" per entry, a missing loc or msg handled, non-objects skipped', () => {
		const info = readApiError({
			detail: [
				{ loc: ['query', 'per_page'], msg: 'too big' },
				{ msg: 'no loc' },
				{ loc: ['body'] },
				'junk',
			],
		});
		expect(info.validation).toEqual(['query.per_page: too big', 'no loc', 'body: invalid value']);
		expect(info.message).toBe('query.per_page: too big; no loc; body: invalid value');
	});

	test('an HTML proxy page becomes its text, tags and runs of space removed, cut at 300 characters', () => {
		expect(readApiError('<html><body><h1>502</h1>\n  Bad   gateway</body></html>')).toEqual({
			message: '502 Bad gateway',
		});
		const long = readApiError(`<p>${'x'.repeat(400)}</p>`).message!;
		expect(long).toHaveLength(301);
		expect(long.endsWith('…')).toBe(true);
	});
});

describe('apiError: status + body → a message a no-code user can act on', () => {
	test('401 names the credential to fix, for each API', () => {
		expect(apiError(node, PARTNER, { status: 401, body: {} }, ctx).message).toBe(
			'The GridBank Partner API key is missing, malformed or revoked',
		);
		expect(apiError(node, ENTERPRISE, { status: 401, body: {} }, ctx).message).toBe(
			'The GridBank Enterprise API key is missing, malformed or revoked',
		);
	});

	test('403 without the API envelope is the edge, not a licence problem', () => {
		const error = apiError(
			node,
			PARTNER,
			{ status: 403, body: '<html>Forbidden</html>' },
			{ ...ctx, subject: 'k1' },
		);
		expect(error.message).toBe('GridBank blocked the request before it reached the API');
		expect(failureCause(error)).toBe('temporarily-unavailable');
	});

	test('Partner 403s: access withdrawn (credential), not licensed (configuration), an unknown code quoted', () => {
		const revoked = apiError(
			node,
			PARTNER,
			{
				status: 403,
				body: { detail: { error: { code: 'partner_access_revoked', message: 'gone' } } },
			},
			ctx,
		);
		expect(revoked.message).toBe('Partner API access has been withdrawn for this account');
		expect(failureCause(revoked)).toBe('credential-invalid');

		const unlicensed = apiError(
			node,
			PARTNER,
			{ status: 403, body: { detail: { error: { code: 'not_licensed', message: 'no' } } } },
			{ ...ctx, subject: 'k1' },
		);
		expect(unlicensed.message).toBe('Video "k1" is not licensed by this account');
		expect(unlicensed.description).toContain('GridBank said: "no"');
		expect(failureCause(unlicensed)).toBe('configuration-invalid');

		const unknown = apiError(
			node,
			PARTNER,
			{ status: 403, body: { detail: { error: { code: 'mystery' } } } },
			ctx,
		);
		expect(unknown.message).toBe('GridBank refused the request (HTTP 403, code "mystery")');
		expect(failureCause(unknown)).toBeUndefined();
	});

	test('Enterprise 403 with its envelope: no active subscription', () => {
		const error = apiError(
			node,
			ENTERPRISE,
			{ status: 403, body: { detail: 'Subscription inactive' } },
			ctx,
		);
		expect(error.message).toBe('No active subscription for this operation');
		expect(error.description).toContain('GridBank said: "Subscription inactive"');
		expect(failureCause(error)).toBe('configuration-invalid');
	});

	test('404 names the video; 422 lists each invalid parameter', () => {
		expect(
			apiError(
				node,
				ENTERPRISE,
				{ status: 404, body: { detail: 'Not found' } },
				{ ...ctx, subject: 'ocean/x' },
			).message,
		).toBe('No video "ocean/x"');
		const invalid = apiError(
			node,
			PARTNER,
			{ status: 422, body: { detail: [{ loc: ['query', 'per_page'], msg: 'too big' }] } },
			ctx,
		);
		expect(invalid.message).toBe('Invalid parameter: query.per_page: too big');
		expect(apiError(node, PARTNER, { status: 422, body: {} }, ctx).message).toBe(
			'Invalid parameter: GridBank rejected a parameter',
		);
	});

	test('429 and 5xx count the retries in words that agree with the number', () => {
		expect(apiError(node, PARTNER, { status: 429, body: {} }, { ...ctx, retries: 1 }).message).toBe(
			'Rate limit exceeded after 1 retry',
		);
		expect(apiError(node, PARTNER, { status: 429, body: {} }, { ...ctx, retries: 3 }).message).toBe(
			'Rate limit exceeded after 3 retries',
		);
		const once = apiError(node, ENTERPRISE, { status: 503, body: { detail: 'maintenance' } }, ctx);
		expect(once.message).toBe('GridBank had a temporary fault (HTTP 503)');
		expect(once.description).toBe(
			'The request was tried 1 time. Try again in a few minutes. GridBank said: "maintenance"',
		);
		expect(
			apiError(node, ENTERPRISE, { status: 500, body: {} }, { ...ctx, retries: 2 }).description,
		).toContain('tried 3 times');
	});

	test('any other status quotes what GridBank said; httpCode and item index are kept', () => {
		const error = apiError(
			node,
			PARTNER,
			{ status: 409, body: { detail: 'Conflict here' } },
			{ ...ctx, itemIndex: 4 },
		);
		expect(error.message).toBe('GridBank rejected the request (HTTP 409): Conflict here');
		expect(error.httpCode).toBe('409');
		expect(error.context.itemIndex).toBe(4);
	});
});

describe('the other transport errors', () => {
	test('connectionError keeps its own message (n8n would swap it for a generic one)', () => {
		const error = connectionError(node, 'ECONNRESET', { itemIndex: 0, retries: 2 });
		expect(error.message).toBe('Could not reach GridBank: the connection was reset (ECONNRESET)');
		expect(error.description).toContain('tried 3 times');
		expect(connectionError(node, 'ETIMEDOUT', ctx, 'the storage server').description).toContain(
			'that n8n can reach the storage server',
		);
	});

	test('notJsonError: something other than GridBank answered', () => {
		const error = notJsonError(node, 200, ctx);
		expect(error.message).toBe('GridBank answered with a page that is not JSON (HTTP 200)');
		expect(error.httpCode).toBe('200');
	});

	test('atItem sets the item index only where none is set yet', () => {
		const error = connectionError(node, 'EPIPE', { itemIndex: 1, retries: 0 });
		expect(atItem(error, 5).context.itemIndex).toBe(1);
		const bare = { context: {} as Record<string, unknown> };
		expect(atItem(bare, 5).context.itemIndex).toBe(5);
		expect(atItem('text', 5)).toBe('text');
	});
});
