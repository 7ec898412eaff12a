// For tests on Jest's fake clock: what settled by a given moment, asserted without real time.

/** Moves the fake clock `ms` on (running what falls due) and says whether `pending` settled by then. */
export async function settledWithin(ms: number, pending: Promise<unknown>): Promise<boolean> {
	let settled = false;
	pending.then(
		() => (settled = true),
		() => (settled = true),
	);
	await jest.advanceTimersByTimeAsync(ms);
	return settled;
}
