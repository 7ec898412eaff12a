// One phase's section of bench/results/results.md, rewritten in place between its markers (a
// phase run alone: --only=storage, --only=wan), or, the first time, in place of the section a
// full run wrote without markers (from its heading to the next section or marker), or appended.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** One markdown table row: every section's tables are built of these. */
export const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;

export function replaceSection(
	mdFile: string,
	marks: { start: string; end: string; heading: string },
	lines: string[],
): void {
	if (!existsSync(mdFile)) return;
	const text = readFileSync(mdFile, 'utf8');
	const section = `${marks.start}\n${lines.join('\n')}\n${marks.end}\n`;
	let a = text.indexOf(marks.start);
	let b = text.indexOf(marks.end);
	if (a >= 0 && b > a) b += marks.end.length;
	else {
		a = text.indexOf(marks.heading);
		const next = [text.indexOf('\n## ', a + 1), text.indexOf('\n<!-- ', a + 1)].filter(
			(i) => i > a,
		);
		b = a < 0 ? -1 : next.length ? Math.min(...next) : text.length;
	}
	const rest = (s: string) => s.replace(/^\n+/, '');
	writeFileSync(
		mdFile,
		a < 0
			? `${text.replace(/\n+$/, '')}\n\n${section}`
			: `${text.slice(0, a)}${section}\n${rest(text.slice(b))}`.replace(/\n+$/, '\n'),
	);
}
