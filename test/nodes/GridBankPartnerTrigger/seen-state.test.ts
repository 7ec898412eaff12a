// The trigger's seen-state rules on their own, for cases the simulator does not produce:
// purchased_at null, saved data in an unknown shape, the size bound on remembered keys.
import type { IDataObject } from 'n8n-workflow';

import {
	partnerSeen,
	KEEP_KEYS,
	OVERLAP_SECONDS,
	readPartnerState,
	SETTLE_SECONDS,
	sinceFor,
	STATE_VERSION,
	purchaseStop,
	type PartnerState,
} from '../../../nodes/GridBankPartnerTrigger/seen-state';
import { writeState } from '../../../nodes/shared/trigger/saved-state';

const BASE = 'https://api2.gridbank.io';
const NOW = 1_800_000_000;
const video = (video_key: string, purchased_at: number | null): IDataObject => ({
	video_key,
	purchased_at,
	creator: { id: 'c' },
});
const state = (over: Partial<PartnerState> = {}): PartnerState => ({
	version: STATE_VERSION,
	baseUrl: BASE,
	since: NOW - 100,
	keys: [],
	pending: [],
	failures: new Map(),
	...over,
});

test('the boundary trails a recent purchase and moves past it once it is settled', () => {
	expect(sinceFor(NOW - 5, NOW)).toBe(NOW - 5 - OVERLAP_SECONDS);
	expect(sinceFor(NOW - SETTLE_SECONDS - 1, NOW)).toBe(NOW - SETTLE_SECONDS);
});

test('paging stops at the first video purchased before the boundary, never at an undated one', () => {
	const stop = purchaseStop(state({ since: NOW - 100 }), NOW);
	expect(
		[video('a', NOW), video('b', null), video('c', NOW - 100), video('d', NOW - 101)].map(stop),
	).toEqual([false, false, false, true]);
	// Never before anything was listed: the account had no licence at activation.
	expect(purchaseStop(state({ since: null }), NOW)(video('x', 1))).toBe(false);
});

test('without a state the newest dated video is listed and fixes the boundary', () => {
	const stop = purchaseStop(undefined, NOW);
	expect(
		[video('u', null), video('n', NOW - 3600), video('o', NOW - 3600), video('p', NOW - 3601)].map(
			stop,
		),
	).toEqual([false, false, true, true]);
	const outcome = partnerSeen(undefined, [video('u', null), video('n', NOW - 3600)], {
		baseUrl: BASE,
		nowSeconds: NOW,
	});
	expect(outcome.fresh).toEqual([]);
	expect(outcome.next([], new Map())).toEqual(state({ since: NOW - 3599, keys: ['u', 'n'] }));
});

test('a video with purchased_at null is new once, then known', () => {
	const first = partnerSeen(state(), [video('undated', null)], { baseUrl: BASE, nowSeconds: NOW });
	expect(first.fresh.map((v) => v.video_key)).toEqual(['undated']);
	const again = partnerSeen(first.next([], new Map()), [video('undated', null)], {
		baseUrl: BASE,
		nowSeconds: NOW,
	});
	expect(again.fresh).toEqual([]);
});

test('remembered keys are bounded, but never drop one the boundary still needs', () => {
	const old = Array.from({ length: KEEP_KEYS }, (_, i) => `old-${i}`);
	const burst = Array.from({ length: KEEP_KEYS + 5 }, (_, i) => video(`new-${i}`, NOW));
	const next = partnerSeen(state({ keys: old }), burst, { baseUrl: BASE, nowSeconds: NOW }).next(
		[],
		new Map(),
	);
	expect(next.keys).toHaveLength(KEEP_KEYS + 5);
	expect(next.keys.every((key) => key.startsWith('new-'))).toBe(true);
	// A quiet poll re-lists that second while it is open: all still kept, nothing new.
	const quiet = partnerSeen(next, burst, { baseUrl: BASE, nowSeconds: NOW + 30 });
	expect(quiet.fresh).toEqual([]);
	expect(quiet.next([], new Map()).keys).toHaveLength(KEEP_KEYS + 5);
	// Once settled, the boundary moves past that second and the bound applies again.
	const settled = partnerSeen(quiet.next([], new Map()), burst, {
		baseUrl: BASE,
		nowSeconds: NOW + SETTLE_SECONDS + 1,
	}).next([], new Map());
	expect(settled.since).toBe(NOW + 1);
	expect(settled.keys).toHaveLength(KEEP_KEYS);
});

test('saved data of another base URL, version or shape is not trusted', () => {
	const saved = { ...state() } as unknown as IDataObject;
	expect(readPartnerState(saved, BASE)).toEqual(state());
	expect(readPartnerState(saved, 'https://staging.gridbank.example')).toBeUndefined();
	expect(readPartnerState({ ...saved, version: 0 }, BASE)).toBeUndefined();
	expect(readPartnerState({ ...saved, since: 'yesterday' }, BASE)).toBeUndefined();
	expect(readPartnerState({ ...saved, keys: 'a,b' }, BASE)).toBeUndefined();
	expect(readPartnerState({}, BASE)).toBeUndefined();
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
	expect(writes.sort()).toEqual(['backlog', 'keys']);
	writeState(data, state({ keys: ['b', 'a'] }));
	expect(data.backlog).toBeUndefined();
});
