// A downloaded file is one version of one object (issue 24, point 1): when the object behind the
// signed URL is replaced mid-download by another of the same size, every later request is tied
// to the first answer's validator (If-Range) and every answer's validator is checked, so the
// stored file is one version's bytes, or the item fails clearly: never a mix of two versions.
import { DEMO_PARTNER_KEY, fileSha256, versionedId } from '../../../../simulator';
import { partnerDownloads } from './partner-download';
import { binarySha256, storedFiles, type NodeRun } from '../../../harness/run-node';
import { storeKeepsPartialFiles } from '../../../harness/engine';
import { socketsLeftTo } from '../../../harness/open-sockets';
import { storageCalls, useSimulator } from '../../../harness/simulator';
import { MiB } from '../../../../nodes/shared/transport/values';
import { openAllConnections } from '../../../harness/open-all-connections';

openAllConnections();

const sim = useSimulator();

const licensed = (n: number) => sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;
const storage = () => storageCalls(sim());
/**
 * The resume after a cut at 1,000,000 bytes: from what reached n8n's store, which on n8n-core 1.x
 * can be some hundred KiB short of what storage sent (seen: 927,428), so any byte past 0.
 */
const resumedAt = expect.stringMatching(/^bytes=[1-9]\d*-$/);

const download = partnerDownloads();

const CHANGED = "The file changed on GridBank's storage while it was downloading";

function expectFailedClearly(run: NodeRun) {
	expect(run.items).toEqual([]);
	expect(run.error?.message).toBe(CHANGED);
	expect(run.error?.description).toMatch(/replaced by another version/);
	if (!storeKeepsPartialFiles) expect(storedFiles(run)).toEqual([]);
}

describe('one stream (Parallel Connections 1): a break, then a resume that meets another version', () => {
	const size = 3 * MiB + 11;

	test('storage honouring If-Range sends the new version whole: the file restarts from byte 0 and is that version; the answer let go of closes its connection', async () => {
		const key = licensed(0);
		sim().setVideoFile(key, { size });
		sim().faults.cutDownloadAfter(1_000_000, 1);
		sim().faults.replaceObject({ atRequests: [2] });
		const run = await download(key, 1);
		expect(run.error).toBeUndefined();
		expect(await binarySha256(run.items[0])).toBe(fileSha256(versionedId(key, 1), size));
		expect(run.items[0].json.fileSize).toBe(size);
		const [first, resume, restart] = storage();
		expect(storage()).toHaveLength(3);
		expect(first.headers['if-range']).toBeUndefined();
		// The resume named the version it continues (its ETag); storage answered with the new one whole.
		expect(resume.headers.range).toEqual(resumedAt);
		expect(resume.headers['if-range']).toMatch(/^"[0-9a-f]{32}-\d+"$/);
		expect(resume.status).toBe(200);
		expect(restart.headers.range).toBe('bytes=0-');
		expect(restart.headers['if-range']).toBeUndefined();
		// The resume's answer, let go of unread, closed its connection (not at n8n's 60 s idle timeout).
		expect(await socketsLeftTo(sim().storageUrl)).toBe(0);
	});

	test('storage ignoring If-Range but changing its ETag: the answer is refused, the file restarts and is one version', async () => {
		const key = licensed(1);
		sim().setVideoFile(key, { size });
		sim().faults.cutDownloadAfter(1_000_000, 1);
		sim().faults.replaceObject({ atRequests: [2], ifRange: 'ignore' });
		const run = await download(key, 1);
		expect(run.error).toBeUndefined();
		expect(await binarySha256(run.items[0])).toBe(fileSha256(versionedId(key, 1), size));
		expect(storage().map((e) => [e.headers.range, e.status])).toEqual([
			['bytes=0-', 206],
			[resumedAt, 206],
			['bytes=0-', 206],
		]);
	});

	test('a second change fails the item with a message a user understands; nothing is stored', async () => {
		const key = licensed(2);
		sim().setVideoFile(key, { size });
		// Cut: the first answer, the resume that meets version 1, the restart (version 1); the
		// restart's resume meets version 2.
		sim().faults.cutDownloadAfter(1_000_000, 3);
		sim().faults.replaceObject({ atRequests: [2, 4], ifRange: 'ignore' });
		const run = await download(key, 1);
		expectFailedClearly(run);
		expect(storage()).toHaveLength(4);
	});

	test('storage with Last-Modified only: the resume is tied by date, the file is one version', async () => {
		const key = licensed(7);
		sim().setVideoFile(key, { size });
		sim().faults.omitValidators('etag');
		sim().faults.cutDownloadAfter(1_000_000, 1);
		sim().faults.replaceObject({ atRequests: [2] });
		const run = await download(key, 1);
		expect(run.error).toBeUndefined();
		expect(await binarySha256(run.items[0])).toBe(fileSha256(versionedId(key, 1), size));
		expect(storage().map((e) => [e.headers.range, e.headers['if-range'], e.status])).toEqual([
			['bytes=0-', undefined, 206],
			[resumedAt, 'Tue, 01 Oct 2024 12:00:00 GMT', 200],
			['bytes=0-', undefined, 206],
		]);
	});

	test('a resume without the validator the first answer carried (a CDN stripping it, ignoring If-Range) counts as a change: the file restarts and is one version', async () => {
		const key = licensed(8);
		sim().setVideoFile(key, { size });
		sim().faults.cutDownloadAfter(1_000_000, 1);
		sim().faults.replaceObject({ atRequests: [2], ifRange: 'ignore' });
		sim().faults.stripValidatorsOnParts(1);
		const run = await download(key, 1);
		expect(run.error).toBeUndefined();
		expect(await binarySha256(run.items[0])).toBe(fileSha256(versionedId(key, 1), size));
		expect(storage().map((e) => [e.headers.range, e.status])).toEqual([
			['bytes=0-', 206],
			[resumedAt, 206],
			['bytes=0-', 206],
		]);
	});

	test('validators missing from every resume: restart once, then fail with the "file changed" message; nothing is stored', async () => {
		const key = licensed(9);
		sim().setVideoFile(key, { size });
		// Every GET is cut: the first, its resume (refused), the restart, its resume (refused).
		sim().faults.cutDownloadAfter(1_000_000, 4);
		sim().faults.stripValidatorsOnParts(10);
		const run = await download(key, 1);
		expectFailedClearly(run);
		expect(run.error?.description).toMatch(/ETag/);
		expect(storage()).toHaveLength(4);
	});

	test('storage without validators keeps resuming as before (nothing to tie the parts to)', async () => {
		const key = licensed(3);
		sim().setVideoFile(key, { size });
		sim().faults.omitValidators(true);
		sim().faults.cutDownloadAfter(1_000_000, 1);
		const run = await download(key, 1);
		expect(run.error).toBeUndefined();
		expect(await binarySha256(run.items[0])).toBe(fileSha256(key, size));
		expect(storage().map((e) => [e.headers.range, e.headers['if-range'], e.status])).toEqual([
			['bytes=0-', undefined, 206],
			[resumedAt, undefined, 206],
		]);
	});
});

describe('parallel segments (Parallel Connections 4): segments meet another version', () => {
	const size = 40 * MiB + 7;

	test('storage honouring If-Range: every segment is tied to the first answer; the file restarts and is one version', async () => {
		const key = licensed(4);
		sim().setVideoFile(key, { size });
		sim().faults.replaceObject({ atRequests: [3] });
		const run = await download(key, 4);
		expect(run.error).toBeUndefined();
		expect(await binarySha256(run.items[0])).toBe(fileSha256(versionedId(key, 1), size));
		const segments = storage().filter((e) => e.headers.range !== 'bytes=0-');
		expect(segments.length).toBeGreaterThan(0);
		for (const segment of segments)
			expect(segment.headers['if-range']).toMatch(/^"[0-9a-f]+-\d+"$/);
		// One restart: exactly two requests from byte 0.
		expect(storage().filter((e) => e.headers.range === 'bytes=0-')).toHaveLength(2);
	});

	test('storage ignoring If-Range but changing its ETag: the segment is refused, the file is one version; refused answers close their connections', async () => {
		const key = licensed(5);
		sim().setVideoFile(key, { size });
		sim().faults.replaceObject({ atRequests: [3], ifRange: 'ignore' });
		const run = await download(key, 4);
		expect(run.error).toBeUndefined();
		expect(await binarySha256(run.items[0])).toBe(fileSha256(versionedId(key, 1), size));
		expect(storage().filter((e) => e.headers.range === 'bytes=0-')).toHaveLength(2);
		// The segments' answers, let go of unread, closed their connections.
		expect(await socketsLeftTo(sim().storageUrl)).toBe(0);
	});

	test('a version that keeps changing fails the item clearly; nothing is stored', async () => {
		const key = licensed(6);
		sim().setVideoFile(key, { size });
		// Every GET from the third on meets yet another version.
		const every = Array.from({ length: 60 }, (_, i) => i + 3);
		sim().faults.replaceObject({ atRequests: every, ifRange: 'ignore' });
		const run = await download(key, 4);
		expectFailedClearly(run);
		expect(storage().filter((e) => e.headers.range === 'bytes=0-')).toHaveLength(2);
	});

	test("segments without the first answer's validator (stripped, another version's bytes): a change, restart once, then fail; nothing is stored", async () => {
		const key = licensed(10);
		sim().setVideoFile(key, { size });
		sim().faults.replaceObject({ atRequests: [3], ifRange: 'ignore' });
		sim().faults.stripValidatorsOnParts(60);
		const run = await download(key, 4);
		expectFailedClearly(run);
		expect(storage().filter((e) => e.headers.range === 'bytes=0-')).toHaveLength(2);
	});
});
