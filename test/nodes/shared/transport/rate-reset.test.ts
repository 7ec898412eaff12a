// The one reader of X-RateLimit-Reset (pacer and retry policy alike): Unix seconds, or seconds
// from now below 1e9; never a wait past one window plus the margin.
import { RESET_MARGIN_MS, resetWaitMs } from '../../../../nodes/shared/transport/rate-reset';
import { requestedWaitMs } from '../../../../nodes/shared/transport/retry-policy';
import {
	readAllowance,
	ServerAllowance,
} from '../../../../nodes/shared/transport/server-allowance';

const now = Date.UTC(2026, 0, 1, 12);
const unix = (ms: number) => String(Math.ceil(ms / 1000));
const WINDOW = 60_000;
const BOUND = WINDOW + RESET_MARGIN_MS;

test.each([
	['Unix seconds, 4 s ahead', unix(now + 4000), 4000],
	['Unix seconds, a window ahead', unix(now + WINDOW), WINDOW],
	['between one and two windows ahead: one window and the margin', unix(now + 100_000), BOUND],
	['more than two windows ahead (a clock an hour fast)', unix(now + 3_600_000), BOUND],
	['"tomorrow"', unix(now + 86_400_000), BOUND],
	['a small value: seconds from now', '7', 7000],
	['999999999 (seconds from now: 31 years)', '999999999', BOUND],
	['a few seconds in the past: now', unix(now - 3000), 0],
	['hours in the past', unix(now - 7_200_000), BOUND],
])('%s', (_name, value, expected) => {
	expect(resetWaitMs(value, WINDOW, now)).toBe(expected);
});

test.each(['1e12', '1.5', '-3', 'soon', '', '  ', undefined])('%p: no Reset at all', (value) => {
	expect(resetWaitMs(value, WINDOW, now)).toBeUndefined();
});

test('the retry policy and the pacer read it the same way, on the window they are given', () => {
	const hourAhead = { 'x-ratelimit-reset': unix(now + 3_600_000) };
	expect(requestedWaitMs(hourAhead, now, 10_000)).toBe(10_000 + RESET_MARGIN_MS);
	expect(
		readAllowance(
			{ ...hourAhead, 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0' },
			now,
			WINDOW,
		)?.resetAt,
	).toBe(now + BOUND);
});

test('Retry-After wins over the Reset, on a 429 and a 503; the Reset is a fallback on a 429 only', () => {
	const headers = { 'retry-after': '3', 'x-ratelimit-reset': unix(now + 60_000) };
	expect(requestedWaitMs(headers, now, WINDOW, 429)).toBe(3000);
	expect(requestedWaitMs(headers, now, WINDOW, 503)).toBe(3000);
	expect(requestedWaitMs({ 'x-ratelimit-reset': '5' }, now, WINDOW, 503)).toBeUndefined();
});

test("a refusal's Retry-After sets when the pacer's view grows, not its Reset", () => {
	const allowance = new ServerAllowance(WINDOW);
	allowance.answered(
		{
			'retry-after': '3',
			'x-ratelimit-limit': '300',
			'x-ratelimit-remaining': '0',
			'x-ratelimit-reset': unix(now + 60_000),
		},
		now,
	);
	// Nothing is sent before the 3 s are up (plus the probe spread of under 0.4 s)...
	const wait = allowance.take(now, WINDOW) as number;
	expect(wait).toBeGreaterThanOrEqual(3000);
	expect(wait).toBeLessThan(3400);
	// ...then one request asks.
	expect(allowance.take(now + 3400, WINDOW)).toBe(0);
});
