// Pure: how parameter values from expressions are read.
import type { INode } from 'n8n-workflow';

import { numberFrom, readBoolean, readInteger } from '../../../nodes/shared/read-parameters';

const node = {
	name: 'GridBank',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as unknown as INode;
/** An item whose every parameter is `value`. */
const item = (value: unknown) => ({ node, itemIndex: 0, param: () => value });

test.each([
	[true, true],
	[false, false],
	['true', true],
	[' FALSE ', false],
	['True', true],
])('readBoolean(%p) = %p', (value, expected) =>
	expect(readBoolean(item(value), 'returnAll', 'Return All')).toBe(expected),
);

test.each(['yes', '1', 1, 0, null, undefined, '', {}, []])(
	'readBoolean(%p) refuses, naming the parameter',
	(value) => {
		expect(() => readBoolean(item(value), 'returnAll', 'Return All')).toThrow(
			'Return All must be true or false',
		);
	},
);

test.each([
	[25, 25],
	['25', 25],
	[' 2.5 ', 2.5],
	['-3', -3],
	['.5', 0.5],
])('numberFrom(%p) = %p', (value, expected) => expect(numberFrom(value)).toBe(expected));

test.each(['', ' ', '0x10', '1e3', 'ten', '2,5', true, null, [5], NaN, Infinity])(
	'numberFrom(%p) is not a number',
	(value) => {
		expect(numberFrom(value)).toBeUndefined();
	},
);

test('readInteger: bounds and whole numbers, message with the display name', () => {
	expect(readInteger(item('3'), 'limit', 'Limit', { min: 1 })).toBe(3);
	expect(() => readInteger(item('2.5'), 'limit', 'Limit', { min: 1 })).toThrow(
		'Limit must be a whole number of at least 1',
	);
	expect(() => readInteger(item(0), 'limit', 'Limit', { min: 1 })).toThrow(
		'Limit must be a whole number of at least 1',
	);
	expect(() => readInteger(item('6'), 'expiresIn', 'Expires In', { min: 1, max: 5 })).toThrow(
		'Expires In must be a whole number from 1 to 5',
	);
});

test('readInteger: empty is refused, or undefined when optional (one reader for both)', () => {
	expect(() => readInteger(item(''), 'limit', 'Limit', { min: 1 })).toThrow(
		'Limit must be a whole number of at least 1',
	);
	for (const empty of ['', null, undefined])
		expect(readInteger(item(empty), 'limit', 'Limit', { min: 1, optional: true })).toBeUndefined();
	expect(() => readInteger(item(' '), 'limit', 'Limit', { min: 1, optional: true })).toThrow(
		'Limit must be a whole number of at least 1',
	);
});
