// When segmented-body.ts hands a part's tail to a free connection (the decision: hand-over.ts).
// Judged on the event loop's next turn, once every byte already come has been read: right after
// the process was held up, a part that kept flowing would look silent. While every part is judged
// fine, a free connection looks again every RECHECK_MS: a part may stall or slow down later.
import { sleep } from '../transport/wait';
import { chooseHandOver, type PaceBook, RECHECK_MS } from './hand-over';
import type { Part } from './segment-part';
import type { SegmentWindow } from './segment-window';
import type { TransferMeter } from './transfer-meter';

interface Download {
	segments: SegmentWindow;
	pace: PaceBook;
	meter?: TransferMeter;
	/** Aborted when the stream is destroyed: no judgement after it. */
	stopped: AbortSignal;
	destroyed(): boolean;
	/** GETs the rest of a part. */
	request(part: Part): void;
	/** The part has all its bytes. */
	finish(part: Part): void;
}

/** `handOver()`: a connection may be free and no segment may start; judge soon. */
export function handOverJudge(download: Download): () => void {
	const { segments, pace, stopped } = download;
	let judging = false;
	let rechecking = false;

	const later = (ms: number, then: () => void) => sleep(ms, stopped).then(then, () => undefined);

	function handOver() {
		if (judging || download.destroyed()) return;
		judging = true;
		void later(0, () => {
			judging = false;
			judge();
		});
	}

	function judge() {
		const parts = segments.active();
		if (download.destroyed() || segments.canStart() || parts.length >= segments.allowed) return;
		const typical = pace.typical();
		if (!typical || parts.length === 0) return;
		const choice = chooseHandOver(segments.views(parts), typical, Date.now());
		if (!choice) return recheck();
		const victim = parts[choice.index] as Part;
		const tail = segments.split(victim, choice.split);
		if (download.meter) download.meter.counts.handedOver++;
		download.request(tail);
		// Handed over whole (it made no progress): its response, if any, is let go now.
		if (victim.start + victim.got === victim.end) download.finish(victim);
		judge();
	}

	function recheck() {
		if (rechecking) return;
		rechecking = true;
		void later(RECHECK_MS, () => {
			rechecking = false;
			handOver();
		});
	}

	return handOver;
}
