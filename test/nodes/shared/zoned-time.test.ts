// Pure: date-times without an offset read in a given time zone.
import { parseInZone } from '../../../nodes/shared/zoned-time';

test.each([
	['2026-01-31T12:00:00', 'Asia/Tokyo', '2026-01-31T03:00:00.000Z'],
	['2026-01-31T12:00', 'UTC', '2026-01-31T12:00:00.000Z'],
	['2026-07-01T12:00:00', 'Europe/Berlin', '2026-07-01T10:00:00.000Z'],
	['2026-01-01T12:00:00', 'Europe/Berlin', '2026-01-01T11:00:00.000Z'],
	['2026-03-08T12:00:00.250', 'America/New_York', '2026-03-08T16:00:00.250Z'],
	['2026-01-31', 'Asia/Tokyo', '2026-01-30T15:00:00.000Z'],
	['2026-01-31T12:00:00Z', 'Asia/Tokyo', '2026-01-31T12:00:00.000Z'],
	['2026-01-31T12:00:00+02:00', 'Asia/Tokyo', '2026-01-31T10:00:00.000Z'],
	['2026-01-31T12:00:00', 'Not/AZone', '2026-01-31T12:00:00.000Z'],
])('%s in %s', (text, zone, iso) =>
	expect(new Date(parseInZone(text, zone) as number).toISOString()).toBe(iso),
);

test('not a date', () => {
	expect(parseInZone('yesterday', 'UTC')).toBeUndefined();
	expect(parseInZone('2026-13-45T99:00', 'UTC')).toBeUndefined();
});
