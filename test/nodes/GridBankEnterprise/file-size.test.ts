// Enterprise file_size that is null, empty or not a number means "size unknown", not 0 (issue
// 24, point 7): the download goes ahead and is checked against storage's own length.
import { DEMO_PARTNER_KEY, fileSha256 } from '../../../simulator';
import { runEnterprise } from '../../harness/run-gridbank';
import { binarySha256, cleanUpBinaries } from '../../harness/run-node';
import { useSimulator } from '../../harness/simulator';

const sim = useSimulator();
const keep = cleanUpBinaries();
const size = 2 * 1024 * 1024 + 5;
const video = (n: number) => sim().partnerLicences(DEMO_PARTNER_KEY)[n].video_key;

const getDownload = async (videoId: string) =>
	keep(
		await runEnterprise({ resource: 'video', operation: 'getDownload', videoId, download: true }),
	);

test.each([
	['null', null],
	['an empty string', ''],
	['a word', 'unknown'],
	['true', true],
	['a negative number', -5],
	['a fraction', 1.5],
	['an object', { bytes: 5 }],
])('file_size %s: the file downloads, whole, sized by storage', async (_, value) => {
	const videoId = video(1);
	sim().setVideoFile(videoId, { size });
	sim().faults.fileSizeValue(value);
	const run = await getDownload(videoId);
	expect(run.error).toBeUndefined();
	expect(run.items[0].json.fileSize).toBe(size);
	// What GridBank sent is passed on as it was.
	expect(run.items[0].json.file_size).toEqual(value);
	expect(await binarySha256(run.items[0])).toBe(fileSha256(videoId, size));
});

test('file_size unknown: a body shorter than storage stated still fails the item', async () => {
	const videoId = video(2);
	sim().setVideoFile(videoId, { size, rangeSupport: false });
	sim().faults.fileSizeValue(null);
	sim().faults.declareWrongLength(+5000, 10);
	const run = await getDownload(videoId);
	expect(run.items).toEqual([]);
	expect(run.error?.message).toMatch(/cut off|incomplete/);
});
