// The validator rules alone (object-version.ts): which value ties a ranged request, and which
// answers are another version.
import {
	ifRangeOf,
	versionChange,
	versionOf,
} from '../../../../nodes/shared/download/object-version';

const LM = 'Tue, 01 Oct 2024 12:00:00 GMT';

test('If-Range: a strong ETag, else Last-Modified (a weak ETag never matches), else nothing', () => {
	expect(ifRangeOf({ etag: '"abc"', lastModified: LM })).toBe('"abc"');
	expect(ifRangeOf({ etag: 'W/"abc"', lastModified: LM })).toBe(LM);
	expect(ifRangeOf({ lastModified: LM })).toBe(LM);
	expect(ifRangeOf({ etag: 'W/"abc"' })).toBeUndefined();
	expect(ifRangeOf({})).toBeUndefined();
});

test('validators read from headers, blank ones ignored, arrays take the first', () => {
	expect(versionOf({ etag: ' "a" ', 'last-modified': '' })).toEqual({
		etag: '"a"',
		lastModified: undefined,
	});
	expect(versionOf({ etag: ['"a"', '"b"'] })).toEqual({ etag: '"a"', lastModified: undefined });
});

test('another version: a different ETag or Last-Modified; a weakened ETag or a reformatted date is the same', () => {
	expect(versionChange({ etag: '"a"' }, { etag: '"b"' })).toBe('its ETag went from "a" to "b"');
	expect(versionChange({ etag: '"a"' }, { etag: 'W/"a"' })).toBeUndefined();
	expect(versionChange({ lastModified: LM }, { lastModified: LM })).toBeUndefined();
	expect(
		versionChange({ lastModified: LM }, { lastModified: 'Tuesday, 01-Oct-24 12:00:00 GMT' }),
	).toBeUndefined();
	expect(
		versionChange({ lastModified: LM }, { lastModified: 'Tue, 01 Oct 2024 13:00:00 GMT' }),
	).toMatch(/Last-Modified went from/);
	// A validator the first answer carried and a later one lacks: a change (a CDN stripping it).
	expect(versionChange({ etag: '"a"' }, { lastModified: LM })).toMatch(/without the ETag "a"/);
	expect(versionChange({ etag: '"a"', lastModified: LM }, {})).toMatch(/without the ETag/);
	expect(versionChange({ etag: '"a"', lastModified: LM }, { etag: '"a"' })).toMatch(
		/without the Last-Modified/,
	);
	// The first answer carried none (or only a date): nothing more is asked of later ones.
	expect(versionChange({}, {})).toBeUndefined();
	expect(versionChange({ lastModified: LM }, { etag: '"a"', lastModified: LM })).toBeUndefined();
});

test('a validator quoted in a message is at most 80 characters', () => {
	const long = `"${'x'.repeat(5000)}"`;
	const change = versionChange({ etag: '"a"' }, { etag: long })!;
	expect(change.length).toBeLessThan(130);
	expect(change).toMatch(/…$/);
});
