// Pure checks of download placement and signed-URL acceptance (no engine, no network).
import { checkRange, parseContentRange } from '../../../../nodes/shared/download/content-range';
import { acceptSignedUrl } from '../../../../nodes/shared/download/signed-url';

describe('parseContentRange', () => {
	test.each([
		['bytes 0-99/100', { first: 0, last: 99, total: 100 }],
		['bytes 100-4999/5000', { first: 100, last: 4999, total: 5000 }],
		['bytes 5-9/*', { first: 5, last: 9, total: undefined }],
		['BYTES 0-0/1', { first: 0, last: 0, total: 1 }],
	])('%s', (value, expected) => expect(parseContentRange(value)).toEqual(expected));

	test.each([
		undefined,
		'',
		'bytes */100',
		'bytes 10-5/100',
		'bytes 0-100/100',
		'items 0-1/2',
		'bytes 0-1/2, 4-5/6',
		'bytes -1-2/3',
	])('unreadable: %p', (value) => expect(parseContentRange(value)).toBeUndefined());
});

describe('checkRange', () => {
	const base = { status: 206, from: 0, knownTotal: undefined };
	test('a 206 from the byte asked for, to the end', () => {
		expect(checkRange({ ...base, contentRange: 'bytes 0-99/100' })).toEqual({
			ok: true,
			start: 0,
			total: 100,
		});
		expect(
			checkRange({ ...base, from: 40, contentRange: 'bytes 40-99/100', knownTotal: 100 }),
		).toEqual({ ok: true, start: 40, total: 100 });
	});
	test('a first answer starting past byte 0 is misplaced', () => {
		expect(checkRange({ ...base, contentRange: 'bytes 100-4999/5000' })).toMatchObject({
			ok: false,
			kind: 'misplaced',
		});
	});
	test('a resume at another byte, a part short of the end, an unreadable header: misplaced', () => {
		expect(checkRange({ ...base, from: 40, contentRange: 'bytes 41-99/100' })).toMatchObject({
			kind: 'misplaced',
		});
		expect(checkRange({ ...base, contentRange: 'bytes 0-49/100' })).toMatchObject({
			kind: 'misplaced',
		});
		expect(checkRange({ ...base, contentRange: undefined })).toMatchObject({ kind: 'misplaced' });
	});
	test('a total other than the known size', () => {
		expect(checkRange({ ...base, contentRange: 'bytes 0-99/100', knownTotal: 90 })).toMatchObject({
			kind: 'size',
			reason: expect.stringMatching(/100 bytes, but 90/),
		});
	});
	test('200: the whole file, fine from byte 0, "ignored" for a resume', () => {
		expect(checkRange({ status: 200, contentRange: undefined, from: 0, knownTotal: 10 })).toEqual({
			ok: true,
			start: 0,
			total: undefined,
		});
		expect(
			checkRange({ status: 200, contentRange: undefined, from: 10, knownTotal: 100 }),
		).toMatchObject({ ok: false, kind: 'ignored' });
	});
});

describe('acceptSignedUrl', () => {
	test.each([
		'https://storage.gridbank.io/m/a?sig=1',
		'http://127.0.0.1:4011/m',
		'http://127.9.8.7/x',
		'http://localhost:9/x',
		'http://[::1]:8/x',
	])('fetched: %s', (url) => expect(acceptSignedUrl(url)).toEqual({ ok: true, url }));
	test.each([
		['http://storage.gridbank.io/m', /not https/],
		['http://127.0.0.1.evil.com/m', /not https/],
		['data:video/mp4;base64,AAAA', /"data:" URL/],
		['file:///etc/passwd', /"file:" URL/],
		['/masters/abc', /not an absolute URL/],
		['', /empty/],
		[null, /null/],
		[42, /number/],
		[['https://a'], /a list/],
	])('refused: %p', (value, reason) => {
		const verdict = acceptSignedUrl(value);
		expect(verdict.ok).toBe(false);
		expect(!verdict.ok && verdict.reason).toMatch(reason);
	});
});
