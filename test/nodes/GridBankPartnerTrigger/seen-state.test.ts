// The trigger's seen-state rules on their own, for cases the simulator does not produce:
// purchased_at null, saved data in an unknown shape, the size bound on remembered keys.
import type { IDataObject } from 'n8n-workflow';

import {
	afterListing,
	KEEP_KEYS,
	OVERLAP_SECONDS,
	readState,
	SETTLE_SECONDS,
	sinceFor,
	STATE_VERSION,
	stopPaging,
	type SeenState,
} from '../../../nodes/GridBankPartnerTrigger/seen-state';
import { writeState } from '../../../nodes/shared/trigger/saved-state';

const BASE = 'https://api2.gridbank.io';
const NOW = 1_800_000_000;
const video = (video_key: string, purchased_at: number | null): IDataObject => ({
	video_key,
	purchased_at,
	creator: { id: 'c' },
});
const state = (over: Partial<SeenState> = {}): SeenState => ({
	version: STATE_VERSION,
	baseUrl: BASE,
	since: NOW - 100,
	keys: [],
	pending: [],
	failures: {},
	...over,
});

test('the boundary trails a recent purchase and moves past it once it is settled', () => {
	expect(sinceFor(NOW - 5, NOW)).toBe(NOW - 5 - OVERLAP_SECONDS);
	expect(sinceFor(NOW - SETTLE_SECONDS - 1, NOW)).toBe(NOW - SETTLE_SECONDS);
});

test('paging stops at the first video purchased before the boundary, never at an undated one', () => {
	const stop = stopPaging(state({ since: NOW - 100 }), NOW);
	expect(
		[video('a', NOW), video('b', null), video('c', NOW - 100), video('d', NOW - 101)].map(stop),
	).toEqual([false, false, false, true]);
	// Never before anything was listed: the account had no licence at activation.
	expect(stopPaging(state({ since: null }), NOW)(video('x', 1))).toBe(false);
});

test('without a state the newest dated video is listed and fixes the boundary', () => {
	const stop = stopPaging(undefined, NOW);
	expect(
		[video('u', null), video('n', NOW - 3600), video('o', NOW - 3600), video('p', NOW - 3601)].map(
			stop,
		),
	).toEqual([false, false, true, true]);
	const outcome = afterListing(undefined, [video('u', null), video('n', NOW - 3600)], {
		baseUrl: BASE,
		nowSeconds: NOW,
	});
	expect(outcome.queue).toEqual([]);
	expect(outcome.next(0)).toEqual(state({ since: NOW - 3599, keys: ['u', 'n'] }));
});

test('a video with purchased_at null is new once, then known', () => {
	const first = afterListing(state(), [video('undated', null)], { baseUrl: BASE, nowSeconds: NOW });
	expect(first.queue.map((v) => v.video_key)).toEqual(['undated']);
	const again = afterListing(first.next(1), [video('undated', null)], {
		baseUrl: BASE,
		nowSeconds: NOW,
	});
	expect(again.queue).toEqual([]);
});

test('remembered keys are bounded, but never drop one the boundary still needs', () => {
	const old = Array.from({ length: KEEP_KEYS }, (_, i) => `old-${i}`);
	const burst = Array.from({ length: KEEP_KEYS + 5 }, (_, i) => video(`new-${i}`, NOW));
	const next = afterListing(state({ keys: old }), burst, { baseUrl: BASE, nowSeconds: NOW }).next(
		burst.length,
	);
	expect(next.keys).toHaveLength(KEEP_KEYS + 5);
	expect(next.keys.every((key) => key.startsWith('new-'))).toBe(true);
	// A quiet poll re-lists that second while it is open: all still kept, nothing new.
	const quiet = afterListing(next, burst, { baseUrl: BASE, nowSeconds: NOW + 30 });
	expect(quiet.queue).toEqual([]);
	expect(quiet.next(0).keys).toHaveLength(KEEP_KEYS + 5);
	// Once settled, the boundary moves past that second and the bound applies again.
	const settled = afterListing(quiet.next(0), burst, {
		baseUrl: BASE,
		nowSeconds: NOW + SETTLE_SECONDS + 1,
	}).next(0);
	expect(settled.since).toBe(NOW + 1);
	expect(settled.keys).toHaveLength(KEEP_KEYS);
});

test('saved data of another base URL, version or shape is not trusted', () => {
	const saved = { ...state() } as unknown as IDataObject;
	expect(readState(saved, BASE)).toEqual(state());
	expect(readState(saved, 'https://staging.gridbank.example')).toBeUndefined();
	expect(readState({ ...saved, version: 0 }, BASE)).toBeUndefined();
	expect(readState({ ...saved, since: 'yesterday' }, BASE)).toBeUndefined();
	expect(readState({ ...saved, keys: 'a,b' }, BASE)).toBeUndefined();
	expect(readState({}, BASE)).toBeUndefined();
});

test('only changed fields are written, and an empty backlog is not stored', () => {
	const writes: string[] = [];
	const data = new Proxy({} as IDataObject, {
		set(target, name, value) {
			writes.push(String(name));
			return Reflect.set(target, name, value);
		},
	});
	writeState(data, state({ keys: ['a'] }));
	expect(writes.sort()).toEqual(['baseUrl', 'keys', 'since', 'version']);
	writes.splice(0);
	writeState(data, state({ keys: ['a'] }));
	expect(writes).toEqual([]);
	writeState(data, state({ keys: ['b', 'a'], pending: [video('p', NOW)] }));
	expect(writes.sort()).toEqual(['keys', 'pending']);
	writeState(data, state({ keys: ['b', 'a'] }));
	expect(data.pending).toBeUndefined();
});
