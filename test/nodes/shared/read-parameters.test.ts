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

test.each([
	[true, true],
	[false, false],
	['true', true],
	[' FALSE ', false],
	['True', true],
])('readBoolean(%p) = %p', (value, expected) =>
	expect(readBoolean(node, value, 'Return All', 0)).toBe(expected),
);

test.each(['yes', '1', 1, 0, null, undefined, '', {}, []])(
	'readBoolean(%p) refuses, naming the parameter',
	(value) => {
		expect(() => readBoolean(node, value, 'Return All', 0)).toThrow(
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
	expect(readInteger(node, '3', 'Limit', 0, 1)).toBe(3);
	expect(() => readInteger(node, '2.5', 'Limit', 0, 1)).toThrow(
		'Limit must be a whole number of at least 1',
	);
	expect(() => readInteger(node, 0, 'Limit', 0, 1)).toThrow(
		'Limit must be a whole number of at least 1',
	);
	expect(() => readInteger(node, '6', 'Expires In', 0, 1, 5)).toThrow(
		'Expires In must be a whole number from 1 to 5',
	);
});
