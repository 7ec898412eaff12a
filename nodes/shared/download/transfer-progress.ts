// Progress of one large transfer in n8n's log (the context's logger, info level, as n8n's own
// nodes log): a line at every 10 % of the file and at least every 30 s, even while nothing
// arrives, then one line with the totals. A file under PROGRESS_MIN_BYTES logs nothing: it takes
// seconds, and a trigger delivering many small files would flood the log. Lines name the video,
// never a URL (the signed URL is a credential for as long as it lives); the video id is scrubbed.
import type { ItemContext } from '../item-context';
import { MiB } from '../transport/values';
import { sleep } from '../transport/wait';

/** Files smaller than this are not logged (size stated by storage, else bytes received so far). */
export const PROGRESS_MIN_BYTES = 64 * MiB;
/** At most this long between two lines of a file being logged. */
export const PROGRESS_EVERY_MS = 30_000;

interface Clock {
	now: () => number;
	/** How often the stall timer looks whether a line is due. */
	tickMs: number;
}
const REAL_CLOCK: Clock = { now: () => Date.now(), tickMs: 1000 };
let clock = REAL_CLOCK;
/** Tests: a controlled clock for transfers started from now on (restore with no argument). */
export function setProgressClock(controlled?: Clock): void {
	clock = controlled ?? REAL_CLOCK;
}

/** What the final line reports beside the bytes and the time. */
export interface ProgressTotals {
	connections: number;
	resumes: number;
	restarts: number;
	handedOver: number;
	waits: number;
	sha256?: string;
}

/** MiB with one decimal, for the progress lines (values.ts's mib() rounds up to whole MiB). */
const inMib = (bytes: number) =>
	(bytes / MiB).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const mbps = (bytes: number, ms: number) => (bytes / 1e3 / Math.max(ms, 1)).toFixed(1);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export class TransferProgress {
	private readonly clock = clock;
	private readonly stopped = new AbortController();
	private startedAt = this.clock.now();
	private lastLineAt = this.startedAt;
	private total: number | undefined;
	private bytes = 0;
	/** Bytes at which the next 10 % line is due. */
	private nextMark = Infinity;
	private connections = 1;
	private ticking = false;

	constructor(
		private readonly log: (line: string) => void,
		/** e.g. "GridBank download of <video id>" (scrubbed by the caller). */
		private readonly label: string,
	) {}

	/** A new attempt at the whole file (the first, or a restart): bytes count from 0 again. */
	begin(total: number | undefined, connections: number): void {
		this.total = total;
		this.connections = connections;
		this.bytes = 0;
		this.nextMark = total === undefined ? Infinity : total / 10;
		if (this.ticking || (total !== undefined && total < PROGRESS_MIN_BYTES)) return;
		this.ticking = true;
		void this.tick();
	}

	/** Connections for the lines from now on (a parallel download opens them when they help). */
	useConnections(connections: number): void {
		this.connections = connections;
	}

	/** Bytes handed on so far, in order. Called for every chunk: two comparisons in the common case. */
	update(bytes: number): void {
		this.bytes = bytes;
		if (bytes >= this.nextMark) {
			while (this.nextMark <= bytes) this.nextMark += (this.total as number) / 10;
			// The last 10 % is the final line's.
			if (bytes < (this.total as number)) this.line();
		} else if (this.ticking && this.clock.now() - this.lastLineAt >= PROGRESS_EVERY_MS) this.line();
	}

	/** The final line, with the totals (only for a file large enough to have been logged). */
	done(totals: ProgressTotals): void {
		this.stop();
		// Nothing read (a copy that skipped an object already in the bucket): nothing to report.
		if (!this.logged() || this.bytes === 0) return;
		const ms = this.clock.now() - this.startedAt;
		this.log(
			`${this.label} complete: ${inMib(this.bytes)} MiB in ${(ms / 1000).toFixed(1)} s, ${mbps(this.bytes, ms)} MB/s, ` +
				`${plural(totals.connections, 'connection')}, ${plural(totals.resumes, 'resume')}, ` +
				`${plural(totals.restarts, 'restart')}, ${totals.handedOver} handed over, ${plural(totals.waits, 'wait')}` +
				(totals.sha256 ? `, SHA-256 ${totals.sha256}` : ''),
		);
	}

	/** The transfer failed or was cancelled: one line saying how far it got (the error says why). */
	failed(): void {
		this.stop();
		if (this.logged())
			this.log(`${this.label} stopped after ${inMib(this.bytes)} of ${this.ofTotal()} MiB`);
	}

	private stop(): void {
		this.stopped.abort();
	}

	private logged(): boolean {
		return this.total === undefined ? this.bytes >= PROGRESS_MIN_BYTES : this.ticking;
	}

	private ofTotal(): string {
		return this.total === undefined ? 'an unknown number of' : inMib(this.total);
	}

	private line(): void {
		if (!this.logged()) return;
		const now = this.clock.now();
		this.lastLineAt = now;
		const ms = now - this.startedAt;
		const rate = (this.bytes * 1000) / Math.max(ms, 1);
		const percent =
			this.total === undefined ? '' : ` (${Math.floor((this.bytes * 100) / this.total)} %)`;
		const left =
			this.total === undefined || rate <= 0
				? ''
				: `, about ${Math.ceil((this.total - this.bytes) / rate)} s left`;
		this.log(
			`${this.label}: ${inMib(this.bytes)} of ${this.ofTotal()} MiB${percent}, ${mbps(this.bytes, ms)} MB/s, ` +
				`${plural(this.connections, 'connection')}${left}`,
		);
	}

	/** Lines while nothing arrives (a stalled connection): every chunk checks the time too. */
	private async tick(): Promise<void> {
		try {
			for (;;) {
				await sleep(this.clock.tickMs, this.stopped.signal);
				if (this.clock.now() - this.lastLineAt >= PROGRESS_EVERY_MS) this.line();
			}
		} catch {
			// Stopped: the transfer ended.
		}
	}
}

/** The progress of one transfer, logged through the context's logger (n8n's own, at info level). */
export function progressFor(
	item: ItemContext,
	videoId: string,
	what: 'download' | 'copy',
): TransferProgress {
	// Scrubbed (an id is user input), and on one line: a control character could forge another line.
	const name = [...item.client.scrub(videoId)]
		.map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? '?' : c))
		.join('');
	return new TransferProgress((line) => item.ctx.logger.info(line), `GridBank ${what} of ${name}`);
}
