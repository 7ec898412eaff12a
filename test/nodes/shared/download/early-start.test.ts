// The early start (early-start.ts) in the segmented stream itself, over real HTTP from the
// simulator's storage behind a WAN-like link: a connection asks for its next segment before its
// part's last byte, so for a moment one range more than the connections is open (the memory
// window's one extra segment), never two more but for a slow part's tail handed to a free
// connection; the file stays byte-exact. Timed on the client: what is asserted is the order of
// events, not how long anything took.
import { createHash } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';

import { DEMO_PARTNER_KEY, fileSha256 } from '../../../../simulator';
import { useSimulator } from '../../../harness/simulator';
import { segmentedBody } from '../../../../nodes/shared/download/segmented-body';
import { planSegments } from '../../../../nodes/shared/download/segment-plan';
import type { Body } from '../../../../nodes/shared/transport/body-stream';
import { MiB } from '../../../../nodes/shared/transport/values';

const sim = useSimulator();

const get = (url: string, range: string) =>
	new Promise<IncomingMessage>((resolve, reject) =>
		request(url, { headers: { range } }, resolve).on('error', reject).end(),
	);

async function signedUrl(videoKey: string): Promise<string> {
	const response = await fetch(
		`${sim().baseUrl}/partner/v1/videos/${encodeURIComponent(videoKey)}/download`,
		{ headers: { authorization: `Bearer ${DEMO_PARTNER_KEY}` } },
	);
	return ((await response.json()) as { url: string }).url;
}

test('4 connections: the next segment is asked before a part ends; at most 5 ranges open at once, and one more per tail handed over; byte-exact', async () => {
	const size = 160 * MiB + 9;
	const key = sim().partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
	sim().setVideoFile(key, { size });
	sim().faults.wanLink({ connectionBytesPerSecond: 40e6, rttMs: 20 });
	const url = await signedUrl(key);
	const plan = planSegments(size, 4)!;
	const segmentStarts = new Set(
		Array.from({ length: plan.count }, (_, i) => plan.segmentAt(i).start),
	);
	/** Ranges asked from inside a segment: a slow part's tail handed to a free connection. */
	let tails = 0;

	let open = 0;
	let mostOpen = 0;
	/** Counts a response open from its request until its last byte came or it was let go. */
	const track = (body: IncomingMessage) => {
		let counted = true;
		const done = () => counted && ((counted = false), open--);
		body.once('end', done).once('close', done);
		return body;
	};
	const opened = () => {
		open++;
		mostOpen = Math.max(mostOpen, open);
	};
	opened();
	const first = track(await get(url, 'bytes=0-'));
	const stream = segmentedBody(first as unknown as Body, {
		plan,
		total: size,
		maxRetries: 0,
		rethrowFatal: () => undefined,
		open: async (from, end) => {
			opened();
			if (!segmentStarts.has(from)) tails++;
			const response = track(await get(url, `bytes=${from}-${end - 1}`));
			return {
				statusCode: response.statusCode ?? 0,
				contentRange: response.headers['content-range'],
				body: response as unknown as Body,
			};
		},
	}) as unknown as AsyncIterable<Buffer>;

	const hash = createHash('sha256');
	let bytes = 0;
	for await (const chunk of stream) {
		hash.update(chunk);
		bytes += chunk.length;
	}
	expect({ bytes, sha256: hash.digest('hex') }).toEqual({
		bytes: size,
		sha256: fileSha256(key, size),
	});
	// One more than the connections: a segment asked while its connection's part was ending. On a
	// busy machine a part can look slow, and its tail then goes to a free connection (hand-over.ts):
	// one range more for each such tail, until the slow part's response is let go.
	expect(mostOpen).toBeGreaterThanOrEqual(plan.connections + 1);
	expect(mostOpen).toBeLessThanOrEqual(plan.connections + 1 + tails);
	const storage = sim().log.filter((e) => e.target === 'storage');
	expect(storage.length).toBeGreaterThanOrEqual(plan.count);
});
