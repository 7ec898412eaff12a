// The Enterprise Trigger's seen-state rules on their own, for saved data the engine tests do not
// produce: another format, oversized or malformed memory, a search that lost its remembered videos.
import type { IDataObject } from 'n8n-workflow';

import {
	KEEP_KEYS,
	pageReader,
	readSearchState,
	searchKey,
	searchSeen,
	SEEN_RUN,
	STATE_VERSION,
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
	expect(readSearchState({}, BASE, SEARCH)).toEqual({ changed: false });
	expect(readSearchState(saved(['a'], { version: 99 }), BASE, SEARCH)).toEqual({ changed: false });
	expect(readSearchState(saved('a,b'), BASE, SEARCH)).toEqual({ changed: false });
});

test('another search or Base URL: starts afresh, saying so', () => {
	expect(readSearchState(saved(['a']), BASE, searchKey({ q: 'drone' }))).toEqual({ changed: true });
	expect(readSearchState(saved(['a']), 'https://staging.gridbank.io', SEARCH)).toEqual({
		changed: true,
	});
});

test('the search key covers what decides the matches, not the sort', () => {
	expect(searchKey({ q: 'a', sort: 'recent' })).toBe(searchKey({ q: 'a' }));
	expect(searchKey({ q: 'a', duration_max: 5 })).not.toBe(searchKey({ q: 'a' }));
	expect(searchKey({ q: 'a', theme: 'x' })).not.toBe(searchKey({ q: 'a' }));
});

test(`saved memory beyond ${KEEP_KEYS} ids is cut to the most recent; garbage pending and counts are dropped`, () => {
	const keys = Array.from({ length: KEEP_KEYS + 50 }, (_, i) => `v${i}`);
	const { state } = readSearchState(
		saved(keys, { pending: 'x', failures: { a: 'x' } }),
		BASE,
		SEARCH,
	);
	expect(state?.keys).toEqual(keys.slice(0, KEEP_KEYS));
	expect(state?.pending).toEqual([]);
	expect(state?.failures).toEqual(new Map());
});

test('new ids go first and the memory stays bounded', () => {
	const { state } = readSearchState(
		saved(Array.from({ length: KEEP_KEYS }, (_, i) => `old${i}`)),
		BASE,
		SEARCH,
	);
	const outcome = searchSeen(state, [video('n1'), video('n2'), video('old0')], {
		baseUrl: BASE,
		search: SEARCH,
	});
	expect(outcome.fresh.map((v) => v.id)).toEqual(['n1', 'n2']);
	const next = outcome.next([], new Map());
	expect(next.keys.slice(0, 3)).toEqual(['n1', 'n2', 'old0']);
	expect(next.keys).toHaveLength(KEEP_KEYS);
});

test(`a poll reads whole pages, the next only while a page had no ${SEEN_RUN} remembered in a row`, () => {
	const many = readSearchState(
		saved(Array.from({ length: 50 }, (_, i) => `k${i}`)),
		BASE,
		SEARCH,
	).state;
	const page = (ids: string[]) => ids.map(video);
	const reader = pageReader(many);
	// A late entry among remembered ones: the page is read in full, paging goes on (no run).
	expect(reader.afterPage(page(['new', 'k0', 'k1', 'x', 'k2', 'k3']))).toBe(true);
	expect(reader.afterPage(page(Array.from({ length: SEEN_RUN }, (_, i) => `k${i + 4}`)))).toBe(
		false,
	);
	expect(reader.reachedKnown).toBe(true);
	const few = readSearchState(saved(['a', 'b']), BASE, SEARCH).state;
	expect(pageReader(few).afterPage(page(['n', 'a', 'b']))).toBe(false);
	// After a burst the next poll reads at least as many pages as that burst did.
	const deep = readSearchState(saved(['a', 'b'], { depth: 3 }), BASE, SEARCH).state;
	const after = pageReader(deep);
	expect([1, 2, 3].map(() => after.afterPage(page(['a', 'b'])))).toEqual([true, true, false]);
	// Nothing remembered (nothing matched at activation): never stops early.
	const none = pageReader(readSearchState(saved([]), BASE, SEARCH).state);
	expect(none.afterPage(page(['a', 'b', 'c']))).toBe(true);
});
