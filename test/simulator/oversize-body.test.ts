/** Contract: the oversizeApiBody fault sends the real answer behind a padding field, with back-pressure. */
import { request } from 'undici';

import { DEMO_PARTNER_KEY } from '../../simulator';
import { call, UA, contractSimulator } from './helpers';

const ctx = contractSimulator();

const MiB = 1024 * 1024;

test('oversizeApiBody: the answer JSON with a leading padding of `bytes` bytes, chunked; consumed', async () => {
	ctx.sim.faults.oversizeApiBody('/partner/v1/content', 3 * MiB);
	const r = await call(`${ctx.sim.baseUrl}/partner/v1/content?per_page=2`, {
		key: DEMO_PARTNER_KEY,
	});
	expect(r.status).toBe(200);
	expect(r.headers['content-length']).toBeUndefined();
	expect(r.json.padding).toHaveLength(3 * MiB);
	expect(r.json.videos).toHaveLength(2);
	expect(ctx.sim.log[0].bytesSent).toBe(r.bytes.length);
	const again = await call(`${ctx.sim.baseUrl}/partner/v1/content?per_page=2`, {
		key: DEMO_PARTNER_KEY,
	});
	expect(again.json.padding).toBeUndefined();
	expect(ctx.sim.log[1].bytesSent).toBeUndefined();
});

test('oversizeApiBody: Infinity never ends, and a client that stops reading stops the server', async () => {
	ctx.sim.faults.oversizeApiBody('/content', Infinity);
	const res = await request(`${ctx.sim.baseUrl}/partner/v1/content`, {
		headers: { 'user-agent': UA, authorization: `Bearer ${DEMO_PARTNER_KEY}` },
	});
	let read = 0;
	for await (const chunk of res.body) {
		read += (chunk as Buffer).length;
		if (read > 20 * MiB) break;
	}
	expect(read).toBeGreaterThan(20 * MiB);
	// Not reading any more: the server is held by back-pressure, a few socket buffers ahead at most.
	await new Promise((resolve) => setTimeout(resolve, 300));
	const sent = ctx.sim.log[0].bytesSent ?? 0;
	expect(sent).toBeGreaterThan(20 * MiB);
	expect(sent).toBeLessThan(read + 32 * MiB);
});

test('oversizeApiBody: only 200 answers on a matching path', async () => {
	ctx.sim.faults.oversizeApiBody('/content', MiB);
	expect(
		(await call(`${ctx.sim.baseUrl}/partner/v1/content`, { key: 'apik_bad.key' })).status,
	).toBe(401);
	expect(
		(
			await call(`${ctx.sim.baseUrl}/external/v1/usage/me`, {
				key: 'ent_demo_gridbank_enterprise',
			})
		).json.padding,
	).toBeUndefined();
	expect(
		(await call(`${ctx.sim.baseUrl}/partner/v1/content`, { key: DEMO_PARTNER_KEY })).json.padding,
	).toHaveLength(MiB);
});
