// A hostile or sloppy Content-Disposition through the real engine: no disposition type, raw
// UTF-8, a bidirectional override, ":" and no closing quote still give a clean, whole name.
import { DEMO_PARTNER_KEY } from '../../../simulator';
import { runPartner } from '../../harness/run-gridbank';
import { cleanUpBinaries } from '../../harness/run-node';
import { useSimulator } from '../../harness/simulator';

const sim = useSimulator();
const keep = cleanUpBinaries();

test('filename="Ünïcode ‮clip: take 2.mov (raw UTF-8, no type, no closing quote) → "Ünïcode clip take 2.mov"', async () => {
	const key = sim().partnerLicences(DEMO_PARTNER_KEY)[0].video_key;
	sim().setVideoFile(key, { size: 1000 });
	sim().faults.rawDisposition('filename="Ünïcode \u202Eclip: take 2.mov');
	const run = keep(
		await runPartner({ operation: 'getDownloadUrl', videoKey: key, download: true }),
	);
	expect(run.error).toBeUndefined();
	expect(run.items[0].json.fileName).toBe('Ünïcode clip take 2.mov');
	expect(run.items[0].binary?.data.fileName).toBe('Ünïcode clip take 2.mov');
});

test('a 400-byte name is cut to 255 UTF-8 bytes with its extension', async () => {
	const key = sim().partnerLicences(DEMO_PARTNER_KEY)[1].video_key;
	sim().setVideoFile(key, { size: 1000 });
	sim().faults.rawDisposition(`attachment; filename="${'é'.repeat(200)}.mov"`);
	const run = keep(
		await runPartner({ operation: 'getDownloadUrl', videoKey: key, download: true }),
	);
	const name = run.items[0].json.fileName as string;
	expect(Buffer.byteLength(name, 'utf8')).toBeLessThanOrEqual(255);
	expect(name).toMatch(/^é+\.mov$/);
});
