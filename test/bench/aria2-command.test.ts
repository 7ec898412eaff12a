// aria2c's command line and the reading of its CPU time from bash's `times` (bench/aria2-command.ts).
import { aria2Args, parseTimes } from '../../bench/aria2-command';

test('aria2c runs N connections and N splits, without preallocation, resume file or config, quiet, into the folder given', () => {
	const args = aria2Args('http://127.0.0.1:1/f?sig=1', 8, '/tmp/x', 'out.bin');
	expect(args).toEqual(
		expect.arrayContaining([
			'--max-connection-per-server=8',
			'--split=8',
			'--min-split-size=1M',
			'--file-allocation=none',
			'--allow-overwrite=true',
			'--continue=false',
			'--auto-save-interval=0',
			'--no-conf=true',
			'--quiet=true',
			'--dir=/tmp/x',
			'--out=out.bin',
		]),
	);
	expect(args[args.length - 1]).toBe('http://127.0.0.1:1/f?sig=1');
});

test("bash's `times`: the second line is the children's user and system time", () => {
	expect(parseTimes('pid 42\n0m0.012s 0m0.004s\n0m1.250s 1m0.500s\n')).toEqual({
		userMs: 1250,
		systemMs: 60_500,
	});
	expect(parseTimes('')).toEqual({ userMs: 0, systemMs: 0 });
});
