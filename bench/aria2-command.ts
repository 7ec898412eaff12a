// aria2c's command line and the reading of its CPU time (pure: test/bench/aria2-command.test.ts).

export const INSTALL_HINT =
	"aria2c not found: install Debian's aria2 (`sudo apt-get install -y aria2`; run as root or with passwordless sudo, the bench installs it through scripts/toolchain/apt-install.js)";

/** aria2c's command line: N connections to one server, N splits, no preallocation, no resume file, quiet. */
export function aria2Args(url: string, connections: number, dir: string, out: string): string[] {
	return [
		`--max-connection-per-server=${connections}`,
		`--split=${connections}`,
		// aria2's default (20M) would leave 16 connections idle below 320 MB; 1M is its lowest.
		'--min-split-size=1M',
		'--file-allocation=none',
		'--allow-overwrite=true',
		'--auto-file-renaming=false',
		'--continue=false',
		'--always-resume=false',
		'--auto-save-interval=0',
		'--no-conf=true',
		'--max-tries=1',
		'--quiet=true',
		`--dir=${dir}`,
		`--out=${out}`,
		url,
	];
}

const times = (s: string) => {
	const m = /(\d+)m([\d.]+)s/.exec(s);
	return m ? Math.round((Number(m[1]) * 60 + Number(m[2])) * 1000) : 0;
};

/** Parses bash's `times` output: its second line is the children's user and system time. */
export function parseTimes(output: string): { userMs: number; systemMs: number } {
	const line = output.trim().split('\n').pop() ?? '';
	const [user = '', system = ''] = line.trim().split(/\s+/);
	return { userMs: times(user), systemMs: times(system) };
}
