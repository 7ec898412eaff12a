// --only=scrub rewrites its section of bench/results/results.md in place: a full run writes it
// without marks, and a rerun once appended a second section beside the old one.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type ScrubResult, writeScrubSection } from '../../bench/scrub-report';

const result = (longestBlockMs: number): ScrubResult => ({
	bodyBytes: 8 * 1024 * 1024,
	wholeTextMs: 450,
	excerptMs: 0.1,
	longestBlockMs,
	sliceMs: 7,
	rounds: 3,
	okBlockMs: 70,
	tries: 4,
	runSeconds: 4,
	loadAverage: [1, 1, 1],
});

const HEADING = '## Scrubbing a hostile answer';
const count = (text: string, part: string) => text.split(part).length - 1;

test('the section a full run wrote (no marks, a marked section after it) is replaced in place, and again on the next rerun', () => {
	const dir = mkdtempSync(join(tmpdir(), 'scrub-section-'));
	try {
		const file = join(dir, 'results.md');
		const queue = '<!-- queue-mode:start -->\n## Queue mode\n\nrows\n<!-- queue-mode:end -->\n';
		writeFileSync(file, `# Results\n\n${HEADING}\n\n| old | 95.4 ms |\n\n${queue}`);
		writeScrubSection(result(15), dir);
		writeScrubSection(result(12.8), dir);
		const text = readFileSync(file, 'utf8');
		expect(count(text, HEADING)).toBe(1);
		expect(text).not.toContain('95.4 ms');
		expect(text).not.toContain('| 15 ms |');
		expect(text).toContain('| 12.8 ms |');
		// In the old section's place, before the queue-mode section, which is kept whole.
		expect(text.indexOf(HEADING)).toBeLessThan(text.indexOf('<!-- queue-mode:start -->'));
		expect(text).toContain(queue);
		expect(text.startsWith('# Results\n\n<!-- scrub-phase:start -->\n')).toBe(true);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
