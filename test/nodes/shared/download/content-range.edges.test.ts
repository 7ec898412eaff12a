// Pure: Content-Range at its edges (the main cases: content-range.test.ts beside this file):
// unknown totals, numbers past what JavaScript counts exactly, the last byte, any 2xx but 206.
import { checkRange, parseContentRange } from '../../../../nodes/shared/download/content-range';

describe('parseContentRange', () => {
	test('surrounding space and any case of "bytes" are accepted', () => {
		expect(parseContentRange('  Bytes 0-9/10 ')).toEqual({ first: 0, last: 9, total: 10 });
	});
	test.each([
		['a first byte past 2^53', 'bytes 9007199254740993-9007199254740994/*'],
		['a total past 2^53', 'bytes 0-1/9007199254740993'],
		['a last byte equal to the total', 'bytes 0-10/10'],
		['a total of zero', 'bytes 0-0/0'],
		['a space inside the range', 'bytes 0 -9/10'],
	])('%s: unreadable', (_label, value) => expect(parseContentRange(value)).toBeUndefined());
});

describe('checkRange', () => {
	test('an unknown total (*) is fine, even when the size is known', () => {
		expect(
			checkRange({ status: 206, contentRange: 'bytes 40-99/*', from: 40, knownTotal: 100 }),
		).toEqual({ ok: true, start: 40, total: undefined });
	});
	test('the very last byte alone', () => {
		expect(
			checkRange({ status: 206, contentRange: 'bytes 99-99/100', from: 99, knownTotal: 100 }),
		).toEqual({ ok: true, start: 99, total: 100 });
	});
	test('a resume whose total disagrees with the size announced: size, not misplaced', () => {
		expect(
			checkRange({ status: 206, contentRange: 'bytes 40-119/120', from: 40, knownTotal: 100 }),
		).toMatchObject({ ok: false, kind: 'size' });
	});
	test('any status but 206 is the whole file: fine from byte 0 whatever Content-Range says, "ignored" for a resume', () => {
		expect(
			checkRange({ status: 200, contentRange: 'bytes 5-9/10', from: 0, knownTotal: undefined }),
		).toEqual({ ok: true, start: 0, total: undefined });
		expect(
			checkRange({ status: 203, contentRange: undefined, from: 1, knownTotal: undefined }),
		).toMatchObject({
			ok: false,
			kind: 'ignored',
			reason: 'storage answered HTTP 203 with the whole file instead of the part from byte 1',
		});
	});
	test('the reason quotes an unreadable header as it came', () => {
		expect(
			checkRange({ status: 206, contentRange: 'bytes=0-9', from: 0, knownTotal: undefined }),
		).toMatchObject({
			kind: 'misplaced',
			reason: 'storage sent part of the file with an unreadable Content-Range ("bytes=0-9")',
		});
	});
});
