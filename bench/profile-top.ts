// The functions that take the most self time in a .cpuprofile written by cpu-profile.ts (with
// BENCH_CPU_PROFILE set), each with its bucket: where a bucket's time goes, function by function.
//   node .cache/ts/bench/profile-top.js <file.cpuprofile> [count]
import { readFileSync } from 'node:fs';

import { BUCKETS, frameName } from './cpu-profile';

interface Node {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}
const [file, count = '40'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file as string, 'utf8')) as {
	nodes: Node[];
	samples: number[];
	timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map<string, number>();
profile.samples.forEach((id, i) => {
	const node = byId.get(id);
	if (!node) return;
	const f = node.callFrame;
	// Native frames (url '') are named with their first JavaScript caller.
	let caller = '';
	for (let p = parent.get(id); f.url === '' && p !== undefined && !caller; p = parent.get(p)) {
		const pf = byId.get(p)?.callFrame;
		if (pf?.url) caller = ` < ${frameName(pf)}`;
	}
	const bucket = BUCKETS.find((b) => b.test(f))?.name.split(' (')[0];
	const key = `[${bucket}] ${frameName(f)}${caller}`;
	self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
});
for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(count)))
	process.stdout.write(`${ms.toFixed(0).padStart(6)} ms  ${key}\n`);
