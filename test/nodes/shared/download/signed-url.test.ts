// urlExpiry (pure): a signed URL's expiry on this machine's clock, from its lifetime.
import { MAX_URL_LIFETIME_MS, urlExpiry } from '../../../../nodes/shared/download/signed-url';

const ARRIVED = Date.UTC(2026, 10, 25, 12, 0, 0, 400);
const GRIDBANK_NOW = Date.UTC(2026, 10, 25, 11, 50, 0); // GridBank's clock ten minutes behind
const date = new Date(GRIDBANK_NOW).toUTCString();

test("the lifetime against the answer's Date, from arrival, one second short for Date's resolution", () => {
	expect(urlExpiry(GRIDBANK_NOW + 300_000, { date }, ARRIVED)).toBe(ARRIVED + 299_000);
	// GridBank ahead of us: the same lifetime.
	const ahead = GRIDBANK_NOW + 20 * 60_000;
	expect(urlExpiry(ahead + 60_000, { date: new Date(ahead).toUTCString() }, ARRIVED)).toBe(
		ARRIVED + 59_000,
	);
});

test('without a usable Date header, expires_at is read as a time on this clock (as before)', () => {
	for (const headers of [
		{},
		{ date: 'yesterday' },
		{ date: '1732536000' },
		{ date: [date, date] },
		{ date: '2026-11-25T11:50:00Z' },
	])
		expect(urlExpiry(GRIDBANK_NOW + 300_000, headers, ARRIVED)).toBe(GRIDBANK_NOW + 300_000);
});

test('bounded: a lifetime below zero is zero, above a day is a day; no expires_at never expires', () => {
	expect(urlExpiry(GRIDBANK_NOW - 60_000, { date }, ARRIVED)).toBe(ARRIVED);
	expect(urlExpiry(GRIDBANK_NOW + 400 * 86_400_000, { date }, ARRIVED)).toBe(
		ARRIVED + MAX_URL_LIFETIME_MS,
	);
	expect(urlExpiry(Number.NaN, { date }, ARRIVED)).toBe(Infinity);
	expect(urlExpiry(Infinity, { date }, ARRIVED)).toBe(Infinity);
});
