// Pure: Retry-After read strictly (whole seconds or a future HTTP date), else undefined (backoff).
import { requestedWaitMs, retryAfterMs } from '../../../../nodes/shared/transport/retry-policy';

const now = Date.UTC(2026, 0, 31, 12, 0, 0);

test.each([
	['0', 0],
	['7', 7000],
	[' 120 ', 120_000],
	['Sat, 31 Jan 2026 12:00:30 GMT', 30_000],
	['Saturday, 31-Jan-26 12:01:00 GMT', 60_000],
	['Sat Jan 31 12:00:05 2026', 5000],
])('%p → %p ms', (value, ms) => expect(retryAfterMs(value, now)).toBe(ms));

test.each([
	'-5',
	'1.5',
	'5, 10',
	'soon',
	'',
	'1e3',
	'0x10',
	'2026-01-31T12:00:30Z',
	'Sat, 31 Jan 2026 11:59:00 GMT',
	'99999999999',
])('%p → undefined (the caller backs off, never a zero wait)', (value) =>
	expect(retryAfterMs(value, now)).toBeUndefined(),
);

test('two Retry-After headers are a list: not trusted; X-RateLimit-Reset is the fallback', () => {
	expect(requestedWaitMs({ 'retry-after': ['3', '4'] }, now)).toBeUndefined();
	expect(requestedWaitMs({ 'retry-after': ['3'] }, now)).toBe(3000);
	expect(
		requestedWaitMs({ 'retry-after': 'garbage', 'x-ratelimit-reset': String(now / 1000 + 9) }, now),
	).toBe(9000);
});
