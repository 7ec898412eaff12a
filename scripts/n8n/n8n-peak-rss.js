'use strict';
/**
 * Preloaded (`node --require`) into n8n processes whose memory the e2e suite bounds: at exit,
 * appends the process's peak resident set size (the kernel's maxrss, so no peak between
 * samples is missed) to $GRIDBANK_PEAK_RSS_FILE as one JSON line.
 */
const fs = require('node:fs');

const file = process.env.GRIDBANK_PEAK_RSS_FILE;
if (file) {
	process.on('exit', () => {
		try {
			const line = {
				pid: process.pid,
				argv: process.argv.slice(1, 3),
				maxRssBytes: process.resourceUsage().maxRSS * 1024,
			};
			fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
		} catch {
			/* never disturb the process being measured */
		}
	});
}
