// download-worker.ts with the transfer meter's hashing taken out (counting and progress kept):
// hash-cost.ts's baseline for what SHA-256 in order costs a download. Benchmark only.
import { TransferMeter } from '../nodes/shared/download/transfer-meter';

const meter = TransferMeter.prototype as unknown as {
	data(chunk: Buffer): void;
	bytes: number;
	progress: { update(bytes: number): void };
};
meter.data = function (this: typeof meter, chunk: Buffer) {
	this.bytes += chunk.length;
	this.progress.update(this.bytes);
};

// eslint-disable-next-line @typescript-eslint/no-require-imports
require('./download-worker');
