// The JavaScript heap allocations a transfer made, by where they were made: a sampled
// allocation profile written by cpu-profile.ts (with BENCH_HEAP_PROFILE set), objects the
// collector already freed included. It does not count Buffer contents (external memory).
//   node .cache/ts/bench/heap-top.js <file.heapprofile> [count]
import { readFileSync } from 'node:fs';

import { frameName } from './cpu-profile';

interface HeapNode {
	callFrame: { functionName: string; url: string; lineNumber: number };
	selfSize: number;
	children?: HeapNode[];
}
const [file, count = '25'] = process.argv.slice(2);
const { head } = JSON.parse(readFileSync(file as string, 'utf8')) as { head: HeapNode };
const bySite = new Map<string, number>();
let total = 0;
// Each site named with its two callers ("f < its caller < that one's", as profile-top.ts):
// "push" alone says little about who pushed.
const walk = (node: HeapNode, callers: string[]) => {
	const name = frameName(node.callFrame);
	total += node.selfSize;
	const site = [name, ...callers.slice(-2).reverse()].join(' < ');
	if (node.selfSize) bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
	for (const child of node.children ?? []) walk(child, [...callers, name]);
};
walk(head, []);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(`${mib(total)} MiB allocated in all`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(count)))
	console.log(`${mib(bytes).padStart(8)} MiB  ${site}`);
