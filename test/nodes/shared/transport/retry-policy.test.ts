// Pure: which failures are retried, how long the backoff is, what wait a 429/503 asks for, and
// the error when that wait is longer than the node sleeps through. No engine, no HTTP.
import type { INode } from 'n8n-workflow';

import { askedToWaitError } from '../../../../nodes/shared/transport/asked-wait';
import {
	backoffMs,
	finalNetworkErrorCode,
	MAX_WAIT_MS,
	networkErrorCode,
	requestedWaitMs,
	RETRYABLE_STATUSES,
} from '../../../../nodes/shared/transport/retry-policy';

const node: INode = {
	id: 'n',
	name: 'GridBank',
	type: 'n8n-nodes-gridbank.gridBankPartner',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

describe('retryable statuses', () => {
	test.each([429, 500, 502, 503, 504])('%i is retried', (status) =>
		expect(RETRYABLE_STATUSES.has(status)).toBe(true),
	);
	test.each([400, 401, 403, 404, 408, 422, 501, 505])('%i is not', (status) =>
		expect(RETRYABLE_STATUSES.has(status)).toBe(false),
	);
});

describe('backoffMs: between half and all of 500 ms × 2^attempt, capped at 30 s', () => {
	test.each([
		[0, 250, 500],
		[1, 500, 1000],
		[3, 2000, 4000],
		[6, 15_000, 30_000],
		[7, 15_000, 30_000],
		[40, 15_000, 30_000],
	])('attempt %i: %i..%i ms', (attempt, low, high) => {
		expect(backoffMs(attempt, () => 0)).toBe(low);
		expect(backoffMs(attempt, () => 1)).toBe(high);
		const middle = backoffMs(attempt, () => 0.5);
		expect(middle).toBeGreaterThan(low);
		expect(middle).toBeLessThan(high);
	});

	test('never zero, even with the smallest random draw', () => {
		for (let attempt = 0; attempt < 10; attempt++)
			expect(backoffMs(attempt, () => 0)).toBeGreaterThan(0);
	});
});

describe('networkErrorCode', () => {
	test.each([
		[{ code: 'ECONNRESET' }, 'ECONNRESET'],
		[{ code: 'UND_ERR_SOCKET' }, 'UND_ERR_SOCKET'],
		[{ message: 'wrapped', cause: { code: 'ETIMEDOUT' } }, 'ETIMEDOUT'],
		[{ httpCode: 'EPIPE' }, 'EPIPE'],
		[new Error('socket hang up'), 'ECONNRESET'],
		[{ message: 'The operation was aborted' }, 'ECONNRESET'],
		[{ cause: { cause: { cause: { code: 'ECONNABORTED' } } } }, 'ECONNABORTED'],
		// A server restarting refuses for a moment; DNS that did not answer may answer next time.
		[{ code: 'ECONNREFUSED' }, 'ECONNREFUSED'],
		[{ message: 'wrapped', cause: { code: 'EAI_AGAIN' } }, 'EAI_AGAIN'],
		[{ httpCode: 'EAI_AGAIN' }, 'EAI_AGAIN'],
	])('%p → %s', (error, code) => expect(networkErrorCode(error)).toBe(code));

	test.each([
		[
			'a DNS failure (not retried: the name will not resolve on the next try)',
			{ code: 'ENOTFOUND' },
		],
		['an HTTP status as httpCode', { httpCode: '503' }],
		[
			'a cause nested deeper than four levels',
			{ cause: { cause: { cause: { cause: { code: 'ECONNRESET' } } } } },
		],
		['not an object', 'ECONNRESET'],
		['nothing', undefined],
	])('%s → undefined', (_label, error) => expect(networkErrorCode(error)).toBeUndefined());

	test('a host name that does not exist is a final network failure, nothing else is', () => {
		expect(finalNetworkErrorCode({ message: 'x', cause: { code: 'ENOTFOUND' } })).toBe('ENOTFOUND');
		expect(finalNetworkErrorCode({ code: 'EAI_AGAIN' })).toBeUndefined();
		expect(finalNetworkErrorCode({ message: 'socket hang up' })).toBeUndefined();
	});
});

describe('requestedWaitMs', () => {
	const now = Date.UTC(2026, 0, 31, 12, 0, 0);

	test('a Retry-After of whole seconds, as Node delivers the header (lower-case name)', () => {
		expect(requestedWaitMs({ 'retry-after': '4' }, now)).toBe(4000);
	});
	test('Retry-After wins over X-RateLimit-Reset', () => {
		expect(
			requestedWaitMs({ 'retry-after': '2', 'x-ratelimit-reset': String(now / 1000 + 60) }, now),
		).toBe(2000);
	});
	test('an X-RateLimit-Reset already past is a wait of 0, not a negative one', () => {
		expect(requestedWaitMs({ 'x-ratelimit-reset': String(now / 1000 - 5) }, now)).toBe(0);
	});
	test('an X-RateLimit-Reset that is not whole seconds is ignored', () => {
		expect(requestedWaitMs({ 'x-ratelimit-reset': '1769860800.5' }, now)).toBeUndefined();
		expect(requestedWaitMs({ 'x-ratelimit-reset': 'soon' }, now)).toBeUndefined();
	});
	test('no header: undefined (the caller backs off)', () => {
		expect(requestedWaitMs({}, now)).toBeUndefined();
	});
});

describe('askedToWaitError: a wait above the cap fails the item, saying how long GridBank asked', () => {
	test('429: seconds rounded up, the account-wide limit explained, the wait kept for the caller', () => {
		const error = askedToWaitError(node, 429, 150_500, 2);
		expect(error.message).toBe(
			'GridBank asked to wait 151 seconds before the next request (HTTP 429)',
		);
		expect(error.description).toContain(`at most ${MAX_WAIT_MS / 1000} seconds`);
		expect(error.description).toContain('other workflows on the same account count too');
		expect(error.httpCode).toBe('429');
		expect(error.context.itemIndex).toBe(2);
	});
	test('503: no word about rate limits', () => {
		const error = askedToWaitError(node, 503, 600_000, 0);
		expect(error.message).toBe(
			'GridBank asked to wait 600 seconds before the next request (HTTP 503)',
		);
		expect(error.description).not.toContain('account');
		expect(error.httpCode).toBe('503');
	});
});
