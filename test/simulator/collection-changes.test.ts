/** Contract: the simulator's hooks that change the Enterprise collection over time (the trigger's tests use them). */
import { DEMO_ENTERPRISE_KEY, startSimulator, type Simulator } from '../../simulator';
import { call } from './helpers';

let sim: Simulator;
let clock = Date.UTC(2025, 5, 15, 8, 30, 0);

beforeAll(async () => {
	sim = await startSimulator({ now: () => clock });
});
afterAll(async () => {
	await sim.close();
});
beforeEach(() => sim.reset());

const recent = async (q: string) =>
	(
		await call(`${sim.baseUrl}/external/v1/videos/search?q=${q}&sort=recent&per_page=80`, {
			key: DEMO_ENTERPRISE_KEY,
		})
	).json.videos.map((v: { id: string }) => v.id);

const add = (n: number) =>
	sim.addEnterpriseVideos(
		Array.from({ length: n }, (_, i) => ({ title: `Quokkaflux ${i}`, keywords: ['quokkaflux'] })),
	);

test('videos added later are newest in a recent search, each at the clock of its addition', async () => {
	const [first] = add(1);
	clock += 1000;
	const [second] = add(1);
	expect(await recent('quokkaflux')).toEqual([second, first]);
	expect(sim.getVideo(second)?.publishedAt).toBe(clock);
});

test('republishVideo moves a video to its new time; default is now', async () => {
	const ids = add(3).map((id, i) => {
		sim.republishVideo(id, clock - (i + 1) * 60_000);
		return id;
	});
	expect(await recent('quokkaflux')).toEqual(ids);
	sim.republishVideo(ids[2]);
	expect(await recent('quokkaflux')).toEqual([ids[2], ids[0], ids[1]]);
	expect(() => sim.republishVideo('no-such-video')).toThrow(/unknown/);
});

test('withdrawVideos drops videos out of every search; restoreVideos puts them back where they were', async () => {
	const ids = add(3).map((id, i) => {
		sim.republishVideo(id, clock - (i + 1) * 60_000);
		return id;
	});
	sim.withdrawVideos([ids[1]]);
	expect(await recent('quokkaflux')).toEqual([ids[0], ids[2]]);
	const meta = await call(`${sim.baseUrl}/external/v1/videos/${ids[1]}`, {
		key: DEMO_ENTERPRISE_KEY,
	});
	expect(meta.status).toBe(200);
	sim.restoreVideos([ids[1]]);
	expect(await recent('quokkaflux')).toEqual(ids);
	expect(() => sim.restoreVideos([ids[1]])).toThrow(/not withdrawn/);
});
