// Pure: the trigger's seen-state at its edges (clock skew, undated runs, the backlog, the
// "include existing" count, saved data from older versions). The main rules: seen-state.test.ts beside this file.
import type { IDataObject } from 'n8n-workflow';

import {
	partnerSeen,
	KNOWN_UNDATED_RUN,
	MAX_SKEW_SECONDS,
	OVERLAP_SECONDS,
	purchasedAt,
	readPartnerState,
	SETTLE_SECONDS,
	sinceFor,
	STATE_VERSION,
	purchaseStop,
	type PartnerState,
} from '../../../nodes/GridBankPartnerTrigger/seen-state';

const BASE = 'https://api2.gridbank.io';
const NOW = 1_800_000_000;
const video = (video_key: string, purchased_at: unknown): IDataObject =>
	({ video_key, purchased_at }) as IDataObject;
const state = (over: Partial<PartnerState> = {}): PartnerState => ({
	version: STATE_VERSION,
	baseUrl: BASE,
	since: NOW - 100,
	keys: [],
	pending: [],
	failures: new Map(),
	...over,
});
const keys = (videos: IDataObject[]) => videos.map((v) => v.video_key);

describe('purchasedAt: a usable date or none', () => {
	test.each([
		[NOW, NOW],
		[NOW + MAX_SKEW_SECONDS, NOW + MAX_SKEW_SECONDS],
		[0, 0],
	])('%p → %p', (value, expected) => expect(purchasedAt(video('k', value), NOW)).toBe(expected));

	test.each([
		['more than the allowed skew ahead', NOW + MAX_SKEW_SECONDS + 1],
		['milliseconds sent as seconds', NOW * 1000],
		['null', null],
		['a string', String(NOW)],
		['NaN', NaN],
		['Infinity', Infinity],
	])('%s → undefined', (_label, value) =>
		expect(purchasedAt(video('k', value), NOW)).toBeUndefined(),
	);

	test('without a clock any finite number counts', () =>
		expect(purchasedAt(video('k', NOW * 1000))).toBe(NOW * 1000));
});

describe('sinceFor', () => {
	test('exactly SETTLE_SECONDS old is still open; one second more is settled', () => {
		expect(sinceFor(NOW - SETTLE_SECONDS, NOW)).toBe(NOW - SETTLE_SECONDS - OVERLAP_SECONDS);
		expect(sinceFor(NOW - SETTLE_SECONDS - 1, NOW)).toBe(NOW - SETTLE_SECONDS);
	});
	test('a purchase dated ahead of this clock never lifts the boundary past now minus the overlap', () => {
		expect(sinceFor(NOW + 200, NOW)).toBe(NOW - OVERLAP_SECONDS);
	});
});

describe('purchaseStop', () => {
	test(`stops after more than ${KNOWN_UNDATED_RUN} known undated videos in a row, not at unknown ones`, () => {
		const known = Array.from({ length: KNOWN_UNDATED_RUN + 1 }, (_, i) => `u${i}`);
		const stop = purchaseStop(state({ keys: known }), NOW);
		const verdicts = known.map((key) => stop(video(key, null)));
		expect(verdicts.slice(0, KNOWN_UNDATED_RUN)).toEqual(Array(KNOWN_UNDATED_RUN).fill(false));
		expect(verdicts[KNOWN_UNDATED_RUN]).toBe(true);

		const fresh = purchaseStop(state({ keys: known }), NOW);
		expect(
			Array.from({ length: KNOWN_UNDATED_RUN + 5 }, (_, i) => fresh(video(`new${i}`, null))).some(
				Boolean,
			),
		).toBe(false);
	});

	test('a video kept in the backlog counts as known', () => {
		const stop = purchaseStop(
			state({
				keys: [],
				pending: Array.from({ length: KNOWN_UNDATED_RUN + 1 }, (_, i) => video(`p${i}`, null)),
			}),
			NOW,
		);
		const verdicts = Array.from({ length: KNOWN_UNDATED_RUN + 1 }, (_, i) =>
			stop(video(`p${i}`, null)),
		);
		expect(verdicts[KNOWN_UNDATED_RUN]).toBe(true);
	});

	test('never before minListed videos were listed', () => {
		const stop = purchaseStop(state({ since: NOW - 100 }), NOW, 2);
		expect([video('a', NOW - 500), video('b', NOW - 500), video('c', NOW - 500)].map(stop)).toEqual(
			[false, false, true],
		);
	});

	test('a since saved ahead of the clock (older versions) is pulled back to now minus the overlap', () => {
		const stop = purchaseStop(state({ since: NOW + 10_000 }), NOW);
		expect(stop(video('a', NOW - OVERLAP_SECONDS))).toBe(false);
		expect(stop(video('b', NOW - OVERLAP_SECONDS - 1))).toBe(true);
	});
});

describe('partnerSeen', () => {
	test('first activation with Include Existing: that many of the newest are emitted', () => {
		const listed = [video('a', NOW - 10), video('b', NOW - 20), video('c', NOW - 30)];
		expect(
			keys(partnerSeen(undefined, listed, { baseUrl: BASE, nowSeconds: NOW, existing: 2 }).fresh),
		).toEqual(['a', 'b']);
		expect(partnerSeen(undefined, listed, { baseUrl: BASE, nowSeconds: NOW }).fresh).toEqual([]);
	});

	test('a waiting video is not found new again, and what still waits is saved as given', () => {
		const pending = [video('old1', NOW - 50), video('old2', NOW - 60)];
		const outcome = partnerSeen(
			state({ keys: ['old1', 'old2'], pending }),
			[video('new', NOW - 1), video('old1', NOW - 50)],
			{
				baseUrl: BASE,
				nowSeconds: NOW,
			},
		);
		expect(keys(outcome.fresh)).toEqual(['new']);
		expect(keys(outcome.next([pending[1]], new Map()).pending)).toEqual(['old2']);
		expect(outcome.next([], new Map()).pending).toEqual([]);
	});

	test('the boundary never moves back', () => {
		const next = partnerSeen(state({ since: NOW - 100 }), [video('x', NOW - 5000)], {
			baseUrl: BASE,
			nowSeconds: NOW,
		}).next([], new Map());
		expect(next.since).toBe(NOW - 100);
	});

	test('an empty listing keeps what was known', () => {
		const next = partnerSeen(state({ keys: ['a'] }), [], { baseUrl: BASE, nowSeconds: NOW }).next(
			[],
			new Map(),
		);
		expect(next).toEqual(state({ keys: ['a'] }));
	});
});

describe('readPartnerState', () => {
	test('the same API saved with a trailing slash is the same API', () => {
		expect(
			readPartnerState({ ...state(), baseUrl: `${BASE}/` } as unknown as IDataObject, BASE),
		).toEqual(state());
	});
	test('a since of null (no licence at activation) is kept; a missing backlog is empty; keys that are not strings are dropped', () => {
		expect(
			readPartnerState(
				{ version: STATE_VERSION, baseUrl: BASE, since: null, keys: [1, 'b'] },
				BASE,
			),
		).toEqual(state({ since: null, keys: ['b'] }));
	});
	test('a since that is not a finite number is not trusted', () => {
		expect(
			readPartnerState({ ...state(), since: Infinity } as unknown as IDataObject, BASE),
		).toBeUndefined();
	});
});
