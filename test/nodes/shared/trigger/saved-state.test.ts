// The one seen-state both triggers keep, read back bounded whatever was saved, and the key an id
// is remembered by. Pure; the engine tests beside this file hold the polls to the same bounds.
import type { IDataObject } from 'n8n-workflow';

import { boundBacklog } from '../../../../nodes/shared/trigger/backlog';
import {
	MAX_PENDING,
	MAX_PENDING_BYTES,
	readKeys,
	readPending,
	writeState,
} from '../../../../nodes/shared/trigger/saved-state';
import { MAX_ID_LENGTH, videoKeyOf } from '../../../../nodes/shared/trigger/video-key';

test('an id within GridBank’s 50 characters is its own key; a longer one a fixed-length digest', () => {
	expect(videoKeyOf('gbv-3fK9xQ2m')).toBe('gbv-3fK9xQ2m');
	expect(videoKeyOf(42)).toBe('42');
	expect(videoKeyOf('x'.repeat(MAX_ID_LENGTH))).toBe('x'.repeat(MAX_ID_LENGTH));
	const long = videoKeyOf('x'.repeat(20_000));
	expect(long).toMatch(/^#[\w-]{43}$/);
	expect(videoKeyOf('x'.repeat(20_000))).toBe(long);
	expect(videoKeyOf('y'.repeat(20_000))).not.toBe(long);
	for (const none of [null, undefined, {}, [], true]) expect(videoKeyOf(none)).toBe('');
});

test('saved keys: strings of the bounded length only, no repeats, at most the bound', () => {
	expect(readKeys(['a', 1, null, 'b', 'a', 'x'.repeat(51), '', 'c'], 10)).toEqual(['a', 'b', 'c']);
	expect(readKeys('a,b', 10)).toEqual([]);
	expect(readKeys(['a', 'b', 'c'], 2)).toEqual(['a', 'b']);
});

test('the backlog as 0.1.0 saved it (pending, newest first) is read oldest first; this version saves backlog', () => {
	const v = (id: string): IDataObject => ({ id, title: id });
	expect(readPending({ pending: [v('new'), v('old')] }, 'id').pending).toEqual([
		v('old'),
		v('new'),
	]);
	expect(readPending({ backlog: [v('old'), v('new')] }, 'id').pending).toEqual([
		v('old'),
		v('new'),
	]);
	const data: IDataObject = { pending: [v('x')] };
	writeState(data, {
		version: 1,
		baseUrl: 'b',
		keys: [],
		pending: [v('old')],
		failures: new Map([['constructor', 1]]),
	});
	expect(data).toEqual({
		version: 1,
		baseUrl: 'b',
		keys: [],
		backlog: [v('old')],
		failures: [['constructor', 1]],
	});
});

test('what is read back of the backlog is bounded: objects with an id, each within its size, at most the cap', () => {
	const saved = [
		'x',
		null,
		{ title: 'no id' },
		{ id: 'big', title: 'x'.repeat(MAX_PENDING_BYTES) },
		...Array.from({ length: MAX_PENDING + 5 }, (_, i) => ({ id: `v${i}` })),
	];
	const { pending } = readPending({ backlog: saved }, 'id');
	expect(pending).toHaveLength(MAX_PENDING);
	expect(pending[0]).toEqual({ id: 'v0' });
});

test(`beyond ${MAX_PENDING} waiting videos, or one too large to keep, the video is emitted with the reason`, () => {
	const left = [
		{ id: 'big', title: 'x'.repeat(MAX_PENDING_BYTES) },
		...Array.from({ length: MAX_PENDING + 2 }, (_, i) => ({ id: `v${i}` })),
	];
	const { kept, overflow } = boundBacklog(left, 'id');
	expect(kept).toHaveLength(MAX_PENDING);
	expect(overflow.map(({ video }) => video.id)).toEqual([
		'big',
		`v${MAX_PENDING}`,
		`v${MAX_PENDING + 1}`,
	]);
	expect(overflow[0].reason).toMatch(/larger than/);
	expect(overflow[1].reason).toMatch(/already waiting/);
});
