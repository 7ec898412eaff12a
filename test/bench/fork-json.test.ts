// bench/fork-json.ts: a measured run in a fresh process, and the deadline that keeps a hung run
// (a raw copy once stopped with its upload idle) from holding the whole benchmark.
import { forkForJson } from '../../bench/fork-json';

const CHILD = '../test/bench/fixtures/fork-result.js';

describe('forkForJson', () => {
	test('returns the last JSON line, and hands on what was printed before it', async () => {
		const earlier: string[] = [];
		const result = await forkForJson<{ echoed: number }>(CHILD, { value: 7 }, 'echo', {
			earlier: (text) => earlier.push(text),
			timeoutMs: 60_000,
		});
		expect(result).toEqual({ echoed: 7 });
		expect(earlier).toEqual(['before']);
	});

	test('a run with no result by its deadline is killed and fails, naming the run', async () => {
		await expect(
			forkForJson(CHILD, { hang: true }, 'raw copy', { timeoutMs: 1000 }),
		).rejects.toThrow('raw copy had no result after 1 s (killed)');
	});
});
