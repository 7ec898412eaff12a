// The segments of one segmented download (segmented-body.ts) in flight: the one n8n reads (the
// head), the next to start, and which may start. At most `allowed` segments from the head are
// in flight, one more while the head's last bytes are arriving (early-start.ts), so at most
// (connections + 1) × segment size bytes wait. A segment is one part, or several once a part's
// tail went to a free connection (hand-over.ts), kept in file order.
import type { PartView } from './hand-over';
import { newPart, type Part } from './segment-part';
import type { SegmentPlan } from './segment-plan';

export class SegmentWindow {
	/** The segment n8n reads. */
	head = 0;
	/** Connections the download may keep busy now (connection-budget.ts), at most the plan's. */
	allowed = 1;
	private nextToStart = 0;
	/** Each started segment's parts in file order, until n8n has read them. */
	private readonly slots = new Map<number, Part[]>();

	constructor(private readonly plan: SegmentPlan) {}

	/** Every segment was read. */
	get done(): boolean {
		return this.head === this.plan.count;
	}

	/** The part whose chunks n8n takes next. */
	headPart(): Part | undefined {
		return this.slots.get(this.head)?.[0];
	}

	/** Parts not done. */
	active(): Part[] {
		return [...this.slots.values()].flatMap((parts) => parts.filter((p) => !p.done));
	}

	/** Parts holding a connection: not done, and not so near their end that the next went out. */
	busy(): number {
		return this.active().filter((p) => !p.early).length;
	}

	/**
	 * Whether the next segment may start: within the window (as many segments as connections
	 * allowed now), one more while the head is ending.
	 */
	canStart(): boolean {
		const headEnding = this.slots.get(this.head)?.every((p) => p.done || p.early) ?? false;
		const limit = this.head + this.allowed + (headEnding ? 1 : 0);
		return this.nextToStart < this.plan.count && this.nextToStart < limit;
	}

	/** Starts the next segment: its one part. */
	start(): Part {
		const segment = this.plan.segmentAt(this.nextToStart++);
		const part = newPart(segment.index, segment.start, segment.end);
		this.slots.set(segment.index, [part]);
		return part;
	}

	/** The part is one stream that may run on (asked to the file's end, one connection allowed). */
	oneStream(part: Part): boolean {
		return part.open === true && this.allowed === 1;
	}

	/**
	 * The head's only part takes on the next segment, when one connection is allowed and that
	 * segment has not started: n8n reads it straight through, one stream instead of a request per
	 * segment (on loopback 1.2-1.3 times as fast). Never a part cut short (its tail is another's).
	 */
	extend(part: Part): boolean {
		const parts = this.slots.get(this.head);
		const last = part.through ?? part.segment;
		if (this.allowed !== 1 || part.cut || parts?.length !== 1 || parts[0] !== part) return false;
		if (this.nextToStart !== last + 1 || this.nextToStart >= this.plan.count) return false;
		const next = this.plan.segmentAt(this.nextToStart++);
		part.end = next.end;
		part.through = next.index;
		return true;
	}

	/** The head's first part was handed on whole; true when that was the head's last, so the head moved. */
	shiftHead(): boolean {
		const parts = this.slots.get(this.head);
		const part = parts?.shift();
		if (parts && parts.length > 0) return false;
		this.slots.delete(this.head);
		// Past every segment its last part took on.
		this.head = (part?.through ?? this.head) + 1;
		return true;
	}

	/**
	 * The parts as the hand-over sees them (hand-over.ts): the download waits on the head's parts
	 * while the window is full, and on every part once every segment has started.
	 */
	views(parts: Part[]): PartView[] {
		const everyStarted = this.nextToStart === this.plan.count;
		return parts.map((part) => ({
			...part,
			at: part.start + part.got,
			anyPace: everyStarted || part.segment === this.head,
		}));
	}

	/** Cuts `victim` at `at`: the tail, a new part of its segment right after it. */
	split(victim: Part, at: number): Part {
		const parts = this.slots.get(victim.segment) as Part[];
		const tail = newPart(victim.segment, at, victim.end);
		tail.through = victim.through;
		victim.through = undefined;
		victim.end = at;
		victim.cut = true;
		parts.splice(parts.indexOf(victim) + 1, 0, tail);
		return tail;
	}

	/** Lets every part go (the stream was destroyed). */
	clear(drop: (part: Part) => void): void {
		for (const parts of this.slots.values()) parts.forEach(drop);
		this.slots.clear();
	}
}
