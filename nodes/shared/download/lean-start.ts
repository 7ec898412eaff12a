// The first stretch of a segmented download (segmented-body.ts) while one stream is enough: the
// first response (bytes 0-) read as the single stream reads it (resuming-body.ts), each chunk
// handed to n8n's store as it comes, the response paused when the store is full and resumed at
// its next read. No part, no queue: over loopback, the same response read through a part ran at
// 0.8-0.9 of this and took 1.2 times its CPU (docs/downloads.md, "A lean start"). When the
// connection budget opens, or the response breaks, a part takes over from the byte it got to.
import type { Body } from '../transport/body-stream';
import type { ConnectionBudget } from './connection-budget';
import { type BodyWatch, type OrderedOutput, readBody } from './ordered-output';
import { handOn, pastStatedSize, resumeBody } from './hand-on';
import type { Part } from './segment-part';
import type { SegmentWindow } from './segment-window';

interface LeanHooks {
	total: number;
	output: OrderedOutput;
	budget: ConnectionBudget;
	watch?: BodyWatch;
	rethrowFatal: (error: unknown) => void;
	/** The budget opened on a chunk's arrival. */
	opened(): void;
	/** Every byte came: the stream ends. */
	done(): void;
	/** The response ended or broke short of the file's end (it was let go). */
	broke(): void;
}

export interface LeanStart {
	/** Bytes handed on so far. */
	readonly received: number;
	/** The response is paused until n8n's store reads again (the store is full). */
	readonly paused: boolean;
	/** n8n's store read again. */
	more(): void;
	/** Stops reading, the response left open for a part to read on. */
	handOff(): void;
	/** Lets the response go. */
	stop(): void;
}

export function leanStart(first: Body, hooks: LeanHooks): LeanStart {
	const { output, budget, total } = hooks;
	let received = 0;
	let paused = false;
	const reader = readBody(first, {
		data: (chunk) => {
			received += chunk.length;
			if (pastStatedSize(reader, output, received, total)) return;
			const now = Date.now();
			const open = budget.fed(now);
			paused = !handOn(reader, output, chunk);
			// The store has room and nothing more: it waits (as a part's pump counts it).
			if (!paused) budget.waiting(now);
			if (open) hooks.opened();
		},
		// The bytes tell: a response that ended short of the file's end broke.
		end: () => (received === total ? hooks.done() : hooks.broke()),
		fatal: (error) => output.fail(error),
		rethrowFatal: hooks.rethrowFatal,
		watch: hooks.watch,
	});
	reader.start();
	return {
		get received() {
			return received;
		},
		get paused() {
			return paused;
		},
		more: () => {
			if (!paused) return;
			paused = false;
			// The store still holds bytes (it read one of a full buffer): no wait, unless none come.
			budget.resumed(Date.now());
			resumeBody(reader);
		},
		handOff: reader.detach,
		stop: reader.stop,
	};
}

/**
 * The part that carries on from a lean start's `received` bytes: the first segment's, run on
 * (segment-window.ts's extend, one connection still allowed) through the segment those bytes
 * reach, its bytes before `received` already handed on.
 */
export function headAt(segments: SegmentWindow, received: number): Part {
	const head = segments.start();
	head.open = true;
	while (head.end <= received && segments.extend(head));
	head.got = received;
	return head;
}
