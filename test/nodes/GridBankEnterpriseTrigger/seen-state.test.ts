// The Enterprise Trigger's seen-state rules on their own, for saved data the engine tests do not
// produce: another format, oversized or malformed memory, a search that lost its remembered videos.
import type { IDataObject } from 'n8n-workflow';

import {
	afterListing,
	KEEP_KEYS,
	KNOWN_RUN,
	readState,
	searchKey,
	STATE_VERSION,
	stopPaging,
} from '../../../nodes/GridBankEnterpriseTrigger/seen-state';

const BASE = 'https://api2.gridbank.io';
const SEARCH = searchKey({ q: 'drone city' });
const video = (id: string): IDataObject => ({ id });
const saved = (keys: unknown, extra: IDataObject = {}): IDataObject => ({
	version: STATE_VERSION,
	baseUrl: BASE,
	search: SEARCH,
	keys: keys as string[],
	...extra,
});

test('no state, another format or malformed keys: starts afresh without saying the search changed', () => {
	expect(readState({}, BASE, SEARCH)).toEqual({ changed: false });
	expect(readState(saved(['a'], { version: 99 }), BASE, SEARCH)).toEqual({ changed: false });
	expect(readState(saved('a,b'), BASE, SEARCH)).toEqual({ changed: false });
});

test('another search or Base URL: starts afresh, saying so', () => {
	expect(readState(saved(['a']), BASE, searchKey({ q: 'drone' }))).toEqual({ changed: true });
	expect(readState(saved(['a']), 'https://staging.gridbank.io', SEARCH)).toEqual({ changed: true });
});

test('the search key covers what decides the matches, not the sort', () => {
	expect(searchKey({ q: 'a', sort: 'recent' })).toBe(searchKey({ q: 'a' }));
	expect(searchKey({ q: 'a', duration_max: 5 })).not.toBe(searchKey({ q: 'a' }));
	expect(searchKey({ q: 'a', theme: 'x' })).not.toBe(searchKey({ q: 'a' }));
});

test(`saved memory beyond ${KEEP_KEYS} ids is cut to the most recent; garbage pending and counts are dropped`, () => {
	const keys = Array.from({ length: KEEP_KEYS + 50 }, (_, i) => `v${i}`);
	const { state } = readState(saved(keys, { pending: 'x', failures: { a: 'x' } }), BASE, SEARCH);
	expect(state?.keys).toEqual(keys.slice(0, KEEP_KEYS));
	expect(state?.pending).toEqual([]);
	expect(state?.failures).toEqual({});
});

test('new ids go first and the memory stays bounded', () => {
	const { state } = readState(
		saved(Array.from({ length: KEEP_KEYS }, (_, i) => `old${i}`)),
		BASE,
		SEARCH,
	);
	const outcome = afterListing(state, [video('n1'), video('n2'), video('old0')], {
		baseUrl: BASE,
		search: SEARCH,
	});
	expect(outcome.queue.map((v) => v.id)).toEqual(['n1', 'n2']);
	const next = outcome.next([]);
	expect(next.keys.slice(0, 3)).toEqual(['n1', 'n2', 'old0']);
	expect(next.keys).toHaveLength(KEEP_KEYS);
});

test(`paging stops at ${KNOWN_RUN} remembered in a row, or at as many as are remembered when fewer`, () => {
	const many = readState(saved(Array.from({ length: 50 }, (_, i) => `k${i}`)), BASE, SEARCH).state;
	const stop = stopPaging(many).stopAt;
	const listed = ['new', 'k0', 'k1', 'x', ...Array.from({ length: 20 }, (_, i) => `k${i + 2}`)];
	const at = listed.findIndex((id) => stop(video(id)));
	expect(at).toBe(4 + KNOWN_RUN - 1);
	const few = readState(saved(['a', 'b']), BASE, SEARCH).state;
	const stopFew = stopPaging(few);
	expect(['n', 'a', 'b'].map((id) => stopFew.stopAt(video(id)))).toEqual([false, false, true]);
	expect(stopFew.reachedKnown).toBe(true);
	// Nothing remembered (nothing matched at activation): never stops early.
	const none = stopPaging(readState(saved([]), BASE, SEARCH).state).stopAt;
	expect(['a', 'b', 'c'].some((id) => none(video(id)))).toBe(false);
});
