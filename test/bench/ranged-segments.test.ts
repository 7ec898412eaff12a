// The benchmark's raw copy download (bench/ranged-segments.ts) against the simulator over real
// HTTP. Both cases once held a whole `npm run bench` (four raw copies of six in the full run of
// 2026-11-28): a worker back from waiting on a slow reader asked for a segment past the file's
// end, and the answer it refused, left unread, kept the connections from closing.
import { createHash } from 'node:crypto';

import { DEMO_PARTNER_KEY, fileSha256 } from '../../simulator';
import { rangedSegments } from '../../bench/ranged-segments';
import { useSimulator } from '../harness/simulator';
import { partnerSignedUrl } from '../simulator/helpers';

const sim = useSimulator();
const KiB = 1024;
const SIZE = 3 * 1024 * KiB + 5;
const SEGMENT = 64 * KiB;
const count = Math.ceil(SIZE / SEGMENT);

async function fileUrl(): Promise<{ key: string; url: string }> {
	const key = sim().partnerLicences(DEMO_PARTNER_KEY)[10].video_key;
	sim().setVideoFile(key, { size: SIZE, fileName: 'raw.mov' });
	return { key, url: await partnerSignedUrl(sim(), key) };
}

/** The first byte each storage request for this file asked for. */
const rangeStarts = (url: string) =>
	sim()
		.log.filter((e) => e.target === 'storage' && e.path === new URL(url).pathname)
		.map((e) => Number(/bytes=(\d+)-/.exec(e.headers.range ?? '')?.[1] ?? -1));

test('a reader slower than the connections gets every segment once, in order, and no byte past the end is asked for', async () => {
	const { key, url } = await fileUrl();
	sim().clearLog();
	const hash = createHash('sha256');
	const stalls: string[] = [];
	let segments = 0;
	// Eight connections, two segments ahead: the workers wait on the reader again and again.
	for await (const segment of rangedSegments(
		url,
		{ size: SIZE, connections: 8, segmentBytes: SEGMENT },
		{ lookAhead: 2, onStall: (message) => void stalls.push(message) },
	)) {
		hash.update(segment);
		segments++;
		await new Promise((resolve) => setTimeout(resolve, 2));
	}
	expect(stalls).toEqual([]);
	expect(segments).toBe(count);
	expect(hash.digest('hex')).toBe(fileSha256(key, SIZE));
	const starts = rangeStarts(url);
	expect(starts.sort((a, b) => a - b)).toEqual(
		Array.from({ length: count }, (_, i) => i * SEGMENT),
	);
});

test('storage ignoring a range ends the download with that status instead of waiting on its unread answer', async () => {
	const { url } = await fileUrl();
	// Every request for a range not at the file's start is answered 200 with the whole file.
	sim().faults.ignoreRange(1000);
	const read = async () => {
		for await (const segment of rangedSegments(
			url,
			{ size: SIZE, connections: 4, segmentBytes: SEGMENT },
			{ lookAhead: 2 },
		))
			expect(segment.length).toBeLessThanOrEqual(SEGMENT);
	};
	await expect(read()).rejects.toThrow(/raw copy: HTTP 200 for bytes \d+-\d+/);
});
