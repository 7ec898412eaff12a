// Progress of a large download or copy in n8n's log, through n8n-core's real engine: the lines
// come from the execution context's logger (n8n's own Logger at info level, captured where it
// writes), at every 10 % and while a connection stalls, then one line with the totals; nothing for
// a small file; never a signed URL or the key. Time is a controlled clock (setProgressClock), so
// no assertion depends on how fast this machine runs.
import { DEMO_PARTNER_KEY, fileSha256 } from '../../../../simulator';
import { setProgressClock } from '../../../../nodes/shared/download/transfer-progress';
import { outputCapture } from '../../../harness/capture-output';
import { engineLogger } from '../../../harness/engine';
import { pollTrigger, runPartner } from '../../../harness/run-gridbank';
import { cleanUpBinaries } from '../../../harness/run-node';
import { useSimulator } from '../../../harness/simulator';
import { nowSeconds } from '../../GridBankPartnerTrigger/helpers';
import { copyPartner, MIB, useS3 } from '../storage/copy-harness';
import { openAllConnections } from '../../../harness/open-all-connections';

openAllConnections();

process.env.N8N_LOG_LEVEL = 'info';

const sim = useSimulator();
const s3 = useS3();
const keep = cleanUpBinaries();
const output = outputCapture();
const licensed = (i = 0) => sim().partnerLicences(DEMO_PARTNER_KEY)[i].video_key;

afterEach(() => setProgressClock());

/** The progress lines of one run, as n8n's logger wrote them. */
async function logged<T>(run: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
	output.start();
	try {
		const result = await run();
		return {
			result,
			lines: output
				.stop()
				.split('\n')
				.filter((l) => /GridBank (download|copy) of/.test(l)),
		};
	} finally {
		output.stop();
	}
}

const download = (videoKey: string, parallelConnections: number) =>
	runPartner({
		operation: 'getDownloadUrl',
		videoKey,
		download: true,
		options: { parallelConnections },
	}).then(keep);

/** "<done> of <total> MiB (<percent> %)" of a progress line. */
const progressOf = (line: string) => {
	const found = / ([\d,.]+) of ([\d,.]+) MiB \((\d+) %\)/.exec(line);
	return found ? { done: found[1], total: found[2], percent: Number(found[3]) } : undefined;
};

test('a large download logs at every 10 % through the context logger, then one line with the totals', async () => {
	setProgressClock({ now: () => 1_000_000, tickMs: 1000 }); // frozen: only the 10 % lines
	const key = licensed();
	const size = 80 * MIB + 3;
	sim().setVideoFile(key, { size });
	// n8n's own Logger, the one the engine's contexts use, watched (it still writes): the lines go
	// through its info().
	const logger = engineLogger();
	if (!logger)
		throw new Error("no Logger found beside this n8n-core: the test cannot watch n8n's log");
	const info = jest.spyOn(logger, 'info');
	const { result: run, lines } = await logged(() => download(key, 4));
	const viaInfo = info.mock.calls.map(([message]) => String(message));
	info.mockRestore();
	expect(run.error).toBeUndefined();
	expect(viaInfo.filter((m) => m.startsWith('GridBank download of'))).toEqual(lines);
	const progress = lines.slice(0, -1);
	expect(progress).toHaveLength(9);
	progress.forEach((line, i) => {
		expect(line).toContain(`GridBank download of ${key}: `);
		const p = progressOf(line);
		expect(p?.total).toBe('80.0');
		expect(p?.percent).toBeGreaterThanOrEqual(10 * (i + 1));
		expect(p?.percent).toBeLessThan(10 * (i + 2));
		expect(line).toMatch(/, [\d.]+ MB\/s, 4 connections, about \d+ s left/);
	});
	const last = lines[lines.length - 1];
	expect(last).toContain(`GridBank download of ${key} complete: 80.0 MiB in `);
	// On loopback a busy machine can slow one connection enough for a hand-over (hand-over.ts).
	expect(last).toMatch(/4 connections, 0 resumes, 0 restarts, \d+ handed over, 0 waits/);
	expect(last).toContain(
		`${(run.items[0].json.transfer as { handedOver: number }).handedOver} handed over`,
	);
	expect(last).toContain(`SHA-256 ${fileSha256(key, size)}`);
	expect(run.items[0].json.sha256).toBe(fileSha256(key, size));
	for (const line of lines) {
		expect(line).not.toMatch(/https?:|X-Amz|Signature|apik_/i);
		expect(line).not.toContain(DEMO_PARTNER_KEY);
	}
});

test('a file under 64 MiB logs nothing', async () => {
	const key = licensed();
	sim().setVideoFile(key, { size: 63 * MIB });
	const { result: run, lines } = await logged(() => download(key, 8));
	expect(run.error).toBeUndefined();
	expect(lines).toEqual([]);
});

test('while a connection stalls, a line at least every 30 s (a controlled clock, 100× real time)', async () => {
	const start = Date.now();
	setProgressClock({ now: () => start + (Date.now() - start) * 100, tickMs: 20 });
	const key = licensed();
	sim().setVideoFile(key, { size: 72 * MIB });
	// 2 s of silence = 200 s on the clock: several lines while the byte count stands still.
	sim().faults.stallAfter(20 * MIB + 123, 2000, 1);
	const { result: run, lines } = await logged(() => download(key, 1));
	expect(run.error).toBeUndefined();
	const counts = lines.map((line) => progressOf(line)?.done);
	const repeated = counts.filter((done, i) => done !== undefined && done === counts[i - 1]);
	expect(repeated.length).toBeGreaterThanOrEqual(1);
	expect(lines[lines.length - 1]).toContain('complete: 72.0 MiB');
});

test("a trigger's Download File logs its progress too", async () => {
	setProgressClock({ now: () => 1_000_000, tickMs: 1000 });
	const { key } = sim().createPartnerAccount({ licences: 0 });
	const trigger = pollTrigger({ download: true }, { apiKey: key });
	await trigger.activate();
	const [bought] = sim().addPartnerLicences(key, 1, { purchasedAt: nowSeconds() - 600 });
	sim().setVideoFile(bought, { size: 70 * MIB });
	const { result: poll, lines } = await logged(() => trigger.tick());
	expect(poll.error).toBeUndefined();
	expect(lines).toHaveLength(10);
	expect(lines[9]).toContain(`GridBank download of ${bought} complete: 70.0 MiB`);
});

test('Copy to Storage logs its progress: the same lines, named a copy', async () => {
	setProgressClock({ now: () => 1_000_000, tickMs: 1000 });
	const key = licensed();
	const size = 66 * MIB;
	sim().setVideoFile(key, { size, fileName: 'big.mov' });
	const { result: run, lines } = await logged(() =>
		copyPartner(s3(), { videoKey: key, options: { parallelConnections: 2 } }),
	);
	expect(run.error).toBeUndefined();
	expect(lines).toHaveLength(10);
	expect(lines[0]).toContain(`GridBank copy of ${key}: `);
	expect(lines[9]).toMatch(/complete: 66\.0 MiB in .* 2 connections, 0 resumes/);
	expect(run.items[0].json).toMatchObject({
		sha256: fileSha256(key, size),
		transfer: expect.objectContaining({ connections: 2, resumes: 0, restarts: 0 }),
	});
});
