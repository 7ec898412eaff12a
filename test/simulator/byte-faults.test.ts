/** Contract: the field hardening III (bytes) fault switches (byte-faults.ts) do what their doc says. */
import { request } from 'node:http';

import { DEMO_ENTERPRISE_KEY, fileBytes, versionedId } from '../../simulator';
import { call, contractSimulator, fetchUrl, header, partnerSignedUrl } from './helpers';

const ctx = contractSimulator(5000);

test('without a switch: ETag and Last-Modified stay; a matching If-Range gets the range, another gets 200 and the whole file', async () => {
	const url = await partnerSignedUrl(ctx.sim, ctx.videoKey);
	const first = await fetchUrl(url, { range: 'bytes=0-' });
	const etag = header(first, 'etag')!;
	const lastModified = header(first, 'last-modified')!;
	// A multipart upload's ETag: not the object's MD5, so downloads do not check it.
	expect(etag).toMatch(/^"[0-9a-f]{32}-[0-9]+"$/);
	expect(lastModified).toBe('Tue, 01 Oct 2024 12:00:00 GMT');
	const same = await fetchUrl(url, { range: 'bytes=100-', 'if-range': etag });
	expect(same.status).toBe(206);
	const byDate = await fetchUrl(url, { range: 'bytes=100-', 'if-range': lastModified });
	expect(byDate.status).toBe(206);
	const other = await fetchUrl(url, { range: 'bytes=100-', 'if-range': '"another"' });
	expect(other.status).toBe(200);
	expect(other.bytes.equals(fileBytes(ctx.videoKey, 0, 5000))).toBe(true);
	// A weak ETag never matches (RFC 9110).
	expect((await fetchUrl(url, { range: 'bytes=100-', 'if-range': `W/${etag}` })).status).toBe(200);
});

test('replaceObject: the named GETs meet a new version of the same size (other bytes, ETag, Last-Modified)', async () => {
	const url = await partnerSignedUrl(ctx.sim, ctx.videoKey);
	ctx.sim.faults.replaceObject({ atRequests: [2, 3] });
	const v0 = await fetchUrl(url, { range: 'bytes=0-' });
	expect(v0.bytes.equals(fileBytes(ctx.videoKey, 0, 5000))).toBe(true);
	// GET 2: version 1; its If-Range names version 0, so the whole new object comes back as 200.
	const v1 = await fetchUrl(url, { range: 'bytes=1000-', 'if-range': header(v0, 'etag')! });
	expect(v1.status).toBe(200);
	expect(v1.bytes.equals(fileBytes(versionedId(ctx.videoKey, 1), 0, 5000))).toBe(true);
	expect(v1.bytes.equals(v0.bytes)).toBe(false);
	expect(header(v1, 'content-length')).toBe('5000');
	expect(header(v1, 'etag')).not.toBe(header(v0, 'etag'));
	expect(header(v1, 'last-modified')).not.toBe(header(v0, 'last-modified'));
	// GET 3: version 2, asked without If-Range: the range of the new version.
	const v2 = await fetchUrl(url, { range: 'bytes=1000-' });
	expect(v2.status).toBe(206);
	expect(v2.bytes.equals(fileBytes(versionedId(ctx.videoKey, 2), 1000, 5000))).toBe(true);
	// No more replacements: version 2 stays.
	const still = await fetchUrl(url, { range: 'bytes=0-' });
	expect(header(still, 'etag')).toBe(header(v2, 'etag'));
	ctx.sim.faults.clear();
	expect(header(await fetchUrl(url, { range: 'bytes=0-' }), 'etag')).toBe(header(v0, 'etag'));
});

test("replaceObject with ifRange 'ignore': the new version's range is served despite a stale If-Range", async () => {
	const url = await partnerSignedUrl(ctx.sim, ctx.videoKey);
	ctx.sim.faults.replaceObject({ atRequests: [2], ifRange: 'ignore' });
	const v0 = await fetchUrl(url, { range: 'bytes=0-' });
	const r = await fetchUrl(url, { range: 'bytes=1000-', 'if-range': header(v0, 'etag')! });
	expect(r.status).toBe(206);
	expect(header(r, 'content-range')).toBe('bytes 1000-4999/5000');
	expect(header(r, 'etag')).not.toBe(header(v0, 'etag'));
	expect(r.bytes.equals(fileBytes(versionedId(ctx.videoKey, 1), 1000, 5000))).toBe(true);
});

test('omitValidators: neither ETag nor Last-Modified, until cleared', async () => {
	const url = await partnerSignedUrl(ctx.sim, ctx.videoKey);
	ctx.sim.faults.omitValidators(true);
	const r = await fetchUrl(url, { range: 'bytes=0-' });
	expect(header(r, 'etag')).toBeUndefined();
	expect(header(r, 'last-modified')).toBeUndefined();
	expect(r.bytes.equals(fileBytes(ctx.videoKey, 0, 5000))).toBe(true);
	ctx.sim.faults.omitValidators('etag');
	const dated = await fetchUrl(url, { range: 'bytes=0-' });
	expect(header(dated, 'etag')).toBeUndefined();
	expect(header(dated, 'last-modified')).toBe('Tue, 01 Oct 2024 12:00:00 GMT');
	ctx.sim.faults.omitValidators(false);
	expect(header(await fetchUrl(url), 'etag')).toBeDefined();
});

test('stripValidatorsOnParts: the next 206 answers past byte 0 carry no validator; answers from 0 keep theirs', async () => {
	const url = await partnerSignedUrl(ctx.sim, ctx.videoKey);
	ctx.sim.faults.stripValidatorsOnParts(1);
	const whole = await fetchUrl(url, { range: 'bytes=0-' });
	expect(header(whole, 'etag')).toBeDefined();
	const part = await fetchUrl(url, { range: 'bytes=1000-' });
	expect(part.status).toBe(206);
	expect(header(part, 'etag')).toBeUndefined();
	expect(header(part, 'last-modified')).toBeUndefined();
	expect(header(await fetchUrl(url, { range: 'bytes=1000-' }), 'etag')).toBeDefined();
});

test('busyParts: the next GETs past byte 0 answer 503 with Retry-After; from byte 0 they are served', async () => {
	const url = await partnerSignedUrl(ctx.sim, ctx.videoKey);
	ctx.sim.faults.busyParts('7', 1);
	expect((await fetchUrl(url, { range: 'bytes=0-' })).status).toBe(206);
	const busy = await fetchUrl(url, { range: 'bytes=1000-' });
	expect(busy.status).toBe(503);
	expect(header(busy, 'retry-after')).toBe('7');
	expect((await fetchUrl(url, { range: 'bytes=1000-' })).status).toBe(206);
});

/** Status and headers of a GET, without reading a body that would never end. */
function headersOf(url: string, headers: Record<string, string>) {
	return new Promise<{ status: number; headers: Record<string, unknown>; bytes: number }>(
		(resolve, reject) => {
			const req = request(url, { headers: { 'user-agent': 'contract', ...headers } }, (res) => {
				let bytes = 0;
				res.on('data', (c: Buffer) => (bytes += c.length));
				res.on('error', () => undefined);
				res.on('close', () =>
					resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }),
				);
			});
			req.on('error', reject);
			req.end();
		},
	);
}

test('claimSize: the stated size lies (Content-Range total, Content-Length), the true bytes follow, then the connection closes; consumed', async () => {
	const url = await partnerSignedUrl(ctx.sim, ctx.videoKey);
	ctx.sim.faults.claimSize(99_999_999_999_999);
	const r = await headersOf(url, { range: 'bytes=0-' });
	expect(r.status).toBe(206);
	expect(r.headers['content-range']).toBe('bytes 0-99999999999998/99999999999999');
	expect(r.headers['content-length']).toBe('99999999999999');
	expect(r.bytes).toBe(5000);
	const plain = await fetchUrl(url, { range: 'bytes=0-' });
	expect(header(plain, 'content-range')).toBe('bytes 0-4999/5000');
	ctx.sim.faults.claimSize(1e15);
	const whole = await headersOf(url, {});
	expect(whole.status).toBe(200);
	expect(whole.headers['content-length']).toBe('1000000000000000');
	expect(() => ctx.sim.faults.claimSize(2 ** 60)).toThrow(/safe integer/);
});

test('stallAfter: `bytes` bytes, then silence for `ms` with the connection open, then the rest', async () => {
	const url = await partnerSignedUrl(ctx.sim, ctx.videoKey);
	ctx.sim.faults.stallAfter(1000, 1500);
	const t0 = Date.now();
	const r = await fetchUrl(url, { range: 'bytes=0-' });
	const stalled = Date.now() - t0;
	expect(stalled).toBeGreaterThanOrEqual(1400);
	expect(r.bytes.equals(fileBytes(ctx.videoKey, 0, 5000))).toBe(true);
	// Consumed: the next read of the same 5000 bytes has no 1.5 s silence in it.
	const t1 = Date.now();
	await fetchUrl(url, { range: 'bytes=0-' });
	expect(Date.now() - t1).toBeLessThan(stalled);
});

test('fileSizeValue: Enterprise download answers carry the value as file_size; consumed', async () => {
	const id = ctx.sim.addEnterpriseVideos([{ title: 'sized' }])[0];
	const path = `${ctx.sim.baseUrl}/external/v1/videos/${encodeURIComponent(id)}/download`;
	ctx.sim.faults.fileSizeValue(null);
	ctx.sim.faults.fileSizeValue('', 1);
	expect((await call(path, { key: DEMO_ENTERPRISE_KEY })).json.file_size).toBeNull();
	expect((await call(path, { key: DEMO_ENTERPRISE_KEY })).json.file_size).toBe('');
	expect(typeof (await call(path, { key: DEMO_ENTERPRISE_KEY })).json.file_size).toBe('number');
});
