// API answers are read with a byte cap (8 MiB, docs/gridbank-api.md): an answer past it fails
// the item with a clear message and is cut off, never buffered whole; an answer under it, and
// every real page, goes through; of an error answer only the start is decoded (a message quotes
// at most 16 KiB of it). Through the real engine on both action nodes and the trigger.
import { Readable } from 'node:stream';

import { DEMO_PARTNER_KEY } from '../../../../simulator';
import { ERROR_TEXT_BYTES, readAnswer } from '../../../../nodes/shared/transport/capped-body';
import { pollTrigger, runEnterprise, runPartner } from '../../../harness/run-gridbank';
import { useSimulator } from '../../../harness/simulator';

const sim = useSimulator();
const MiB = 1024 * 1024;
const CAP = 8 * MiB;
const MESSAGE = "GridBank's answer is larger than 8 MiB";

/** What the simulator wrote of the oversized answer: past the cap, but only socket buffers beyond it. */
function expectCutOff(bytesSent: number | undefined) {
	expect(bytesSent).toBeGreaterThan(CAP);
	expect(bytesSent).toBeLessThan(3 * CAP);
}

test('Partner list: a 64 MiB answer fails the item clearly and is cut off near the cap; the next item goes on', async () => {
	sim().faults.oversizeApiBody('/content', 64 * MiB);
	const run = await runPartner(
		{ operation: 'listContent', limit: 3, options: { maxRetries: 0 } },
		{ continueOnFail: true, input: [{ n: 1 }, { n: 2 }] },
	);
	expect(run.items).toHaveLength(4);
	expect(run.items[0].json.error).toBe(MESSAGE);
	expect(run.items[0].json.description).toMatch(/proxy|Base URL/);
	expect(run.items.slice(1).every((item) => typeof item.json.video_key === 'string')).toBe(true);
	expect(run.calls).toHaveLength(2);
	expectCutOff(run.calls[0].bytesSent);
});

test('Enterprise search: an answer that never ends fails at the cap, not at the 30 s deadline', async () => {
	sim().faults.oversizeApiBody('/videos/search', Infinity);
	const run = await runEnterprise({
		resource: 'video',
		operation: 'search',
		query: 'footage',
		limit: 5,
		options: { maxRetries: 0 },
	});
	// The cap's message, not the deadline's: the cap ended it.
	expect(run.error?.message).toBe(MESSAGE);
	expect(run.calls).toHaveLength(1);
	expectCutOff(run.calls[0].bytesSent);
});

test('Partner Trigger: an oversized listing fails the poll, nothing saved, and the next poll works', async () => {
	const trigger = pollTrigger({}, { apiKey: DEMO_PARTNER_KEY });
	expect((await trigger.activate()).error).toBeUndefined();
	const before = JSON.stringify(trigger.nodeState);
	sim().faults.oversizeApiBody('/content', Infinity);
	const poll = await trigger.tick();
	expect(poll.error?.message).toBe(MESSAGE);
	expect(JSON.stringify(trigger.nodeState)).toBe(before);
	expectCutOff(sim().log.find((entry) => entry.bytesSent !== undefined)?.bytesSent);
	expect((await trigger.tick()).error).toBeUndefined();
});

test('an answer just under the cap (7 MiB of padding) is read as usual', async () => {
	sim().faults.oversizeApiBody('/content', 7 * MiB);
	const run = await runPartner({ operation: 'listContent', limit: 3 });
	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(3);
});

test('an 8 MiB error answer is read to its end, only its start decoded: the 500 is retried and reported as such, and nothing of the key reaches the error', async () => {
	// The simulator's hostile body (simulator/hostile-body.ts): GridBank's JSON error around the
	// key's secret in pieces and encodings, the whole key once at the very end.
	sim().faults.failNext({ status: 500, count: 4, bodyBytes: CAP, path: '/content' });
	const run = await runPartner({ operation: 'listContent', limit: 1, options: { maxRetries: 3 } });
	expect(run.error?.message).toMatch(/temporary fault \(HTTP 500\)/);
	expect(run.calls.map((call) => call.status)).toEqual([500, 500, 500, 500]);
	const reported = JSON.stringify(run.error);
	expect(reported).not.toContain(DEMO_PARTNER_KEY.split('.')[1]);
	expect(reported).not.toContain(DEMO_PARTNER_KEY);
});

test('an error answer past its first 256 KiB is kept as the text of its start, marked cut; a success is kept whole', async () => {
	const signal = new AbortController().signal;
	const body = Buffer.from(`{"detail":"${'x'.repeat(ERROR_TEXT_BYTES)}"}`);
	const error = await readAnswer(body, signal, 500);
	expect(error).toEqual({ text: body.subarray(0, ERROR_TEXT_BYTES).toString(), cut: true });
	expect(await readAnswer(body, signal, 200)).toEqual({ text: body.toString() });
	const small = Buffer.from('{"detail":"gone"}');
	expect(await readAnswer(small, signal, 404)).toEqual({ text: small.toString() });
});

test('a streamed answer is decoded as it comes: characters split between chunks, and a cut inside one, read as the whole bytes would be', async () => {
	const signal = new AbortController().signal;
	// A byte order mark, two-, three- and four-byte characters (the error's cut at 256 KiB falls
	// inside a four-byte one), a stray continuation byte and a sequence broken off.
	const bytes = Buffer.concat([
		Buffer.from(`\uFEFF{"title":"${'é€😀'.repeat(40_000)}`),
		Buffer.from([0x80, 0xe2, 0x82, 0x41]),
		Buffer.from('"}'),
	]);
	const chunked = (size: number) => {
		const chunks: Buffer[] = [];
		for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
		return Readable.from(chunks);
	};
	for (const size of [1, 3, 7, 65_536]) {
		// Past 256 KiB: handed back on the loop's next turn.
		expect(await readAnswer(chunked(size), signal, 200)).toEqual({ text: bytes.toString('utf8') });
		const cut = await readAnswer(chunked(size), signal, 500);
		expect(cut).toEqual({ text: bytes.subarray(0, ERROR_TEXT_BYTES).toString('utf8'), cut: true });
	}
	const small = Buffer.from('{"title":"ü"}');
	const halves = Readable.from([small.subarray(0, 11), small.subarray(11)]);
	expect(await readAnswer(halves, signal, 200)).toEqual({ text: '{"title":"ü"}' });
});
