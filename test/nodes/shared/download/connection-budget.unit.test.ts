// When a segmented download opens all its connections (connection-budget.ts): once n8n's store
// waits on one stream most of the time, or for one long stall; never for one pause of the sender,
// nor for the short waits of a loopback download on a busy machine.
import {
	BUDGET_PERIOD_MS,
	ConnectionBudget,
	GROW_AFTER_MS,
	GROW_MIN_WAITS,
	setBudgetStart,
	STALL_MS,
} from '../../../../nodes/shared/download/connection-budget';

afterEach(() => setBudgetStart());

/** The store waits `waitMs`, then gets bytes, `times` times, every `everyMs` from `from`; the first `fed` that opened all, or -1. */
function waits(
	budget: ConnectionBudget,
	from: number,
	times: number,
	waitMs: number,
	everyMs: number,
) {
	for (let i = 0; i < times; i++) {
		const at = from + i * everyMs;
		budget.waiting(at);
		if (budget.fed(at + waitMs)) return i;
	}
	return -1;
}

test('starts as one stream', () => {
	expect(new ConnectionBudget(8, 0).allowed).toBe(1);
});

test('a store waiting between most chunks (one connection of a WAN link) opens every connection within tens of ms', () => {
	const budget = new ConnectionBudget(8, 0);
	// 64 KiB at 25 MB/s every 2.6 ms; the store takes one in 0.3 ms and waits the rest.
	const opened = waits(budget, 0, 100, 2.3, 2.6);
	expect(opened).toBeGreaterThanOrEqual(GROW_MIN_WAITS - 1);
	expect(opened * 2.6 + 2.3).toBeGreaterThanOrEqual(GROW_AFTER_MS);
	expect(opened * 2.6).toBeLessThan(50);
	expect(budget.allowed).toBe(8);
	// Once: it never goes back, and never reports the change again.
	expect(waits(budget, 1000, 10, 100, 200)).toBe(-1);
	expect(budget.review(5000)).toBe(false);
	expect(budget.allowed).toBe(8);
});

test('one pause of the sender, even of 200 ms, is no reason', () => {
	const budget = new ConnectionBudget(8, 0);
	expect(waits(budget, 100, 1, 200, 1)).toBe(-1);
	expect(budget.review(310)).toBe(false);
	expect(budget.allowed).toBe(1);
});

test('a few short waits, or waits spread over many periods, are no reason', () => {
	const budget = new ConnectionBudget(8, 0);
	// Under the share: 4 waits of 2 ms every 25 ms within one period.
	expect(waits(budget, 0, 4, 2, 25)).toBe(-1);
	// One wait of 30 ms per period, period after period: each period has one wait.
	expect(waits(budget, BUDGET_PERIOD_MS, 20, 30, BUDGET_PERIOD_MS + 1)).toBe(-1);
	expect(budget.allowed).toBe(1);
});

test('a loopback stream on a busy machine: many short waits, or a burst of them, are no reason', () => {
	const budget = new ConnectionBudget(8, 0);
	// Measured (docs/downloads.md): 130-430 waits a period, 3-16 % of its time in all.
	expect(waits(budget, 0, 1000, 0.15, 1.5)).toBe(-1);
	// The sender often put aside early in a period: a third of its first 80 ms spent waiting.
	const start = 1000 * 1.5 + BUDGET_PERIOD_MS;
	budget.review(start);
	expect(waits(budget, start, 80, 0.33, 1)).toBe(-1);
	expect(waits(budget, start + 80, 100, 0.15, 2)).toBe(-1);
	// Seen once in four busy runs: a pause of 29 ms among 80 short waits, 35 ms of 67 in all.
	const later = start + 10 * BUDGET_PERIOD_MS;
	budget.review(later);
	expect(waits(budget, later, 60, 0.1, 0.6)).toBe(-1);
	expect(waits(budget, later + 36, 1, 29, 29)).toBe(-1);
	expect(budget.allowed).toBe(1);
});

test('a stream that stalls opens every connection once its wait reaches STALL_MS, across periods', () => {
	const budget = new ConnectionBudget(4, 0);
	budget.waiting(200);
	for (let at = 250; at < 200 + STALL_MS; at += 50) expect(budget.review(at)).toBe(false);
	expect(budget.review(200 + STALL_MS)).toBe(true);
	expect(budget.allowed).toBe(4);
});

test('a stream resumed as the store reads is no wait while bytes come; silent for STALL_MS, a stall', () => {
	const budget = new ConnectionBudget(4, 0);
	// Paused while the store is full, resumed at each read, the next chunk there within a ms.
	for (let at = 0; at < 1000; at++) {
		budget.resumed(at);
		expect(budget.fed(at + 0.9)).toBe(false);
	}
	expect(budget.review(1000)).toBe(false);
	budget.resumed(2000);
	for (let at = 2050; at < 2000 + STALL_MS; at += 50) expect(budget.review(at)).toBe(false);
	expect(budget.review(2000 + STALL_MS)).toBe(true);
	expect(budget.allowed).toBe(4);
});

test('tests can open every connection at once, or keep one stream whatever the waits', () => {
	setBudgetStart('all');
	expect(new ConnectionBudget(8, 0).allowed).toBe(8);
	setBudgetStart('one');
	const one = new ConnectionBudget(8, 0);
	expect(waits(one, 0, 100, 2.3, 2.6)).toBe(-1);
	one.waiting(1000);
	expect(one.review(1000 + 10 * STALL_MS)).toBe(false);
	expect(one.allowed).toBe(1);
});
