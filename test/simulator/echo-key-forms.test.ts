/** Contract: echoKeyForms echoes the key in every form of simulator/key-forms.ts, in error bodies, HTML pages and X-Echo. */
import { DEMO_ENTERPRISE_KEY, DEMO_PARTNER_KEY, keyForms } from '../../simulator';
import { call, header, contractSimulator } from './helpers';

const ctx = contractSimulator();

const SECRET = DEMO_PARTNER_KEY.split('.')[1];

test('keyForms: base64 / base64url of the key, the header and the secret; hex; cases; percent; entities; cut after 12 secret characters', () => {
	const b64 = (s: string) => Buffer.from(s).toString('base64');
	const forms = keyForms(`Bearer ${DEMO_PARTNER_KEY}`);
	expect(forms).toEqual(
		expect.arrayContaining([
			b64(DEMO_PARTNER_KEY),
			b64(`Bearer ${DEMO_PARTNER_KEY}`),
			Buffer.from(SECRET).toString('base64url'),
			Buffer.from(DEMO_PARTNER_KEY).toString('hex'),
			DEMO_PARTNER_KEY.toUpperCase(),
			`Bearer apik_demo.${SECRET.slice(0, 12)}...`,
		]),
	);
	expect(forms.some((f) => f.startsWith('%61%70%69%6b'))).toBe(true);
	expect(forms.some((f) => f.startsWith('&#97;&#112;'))).toBe(true);
	expect(forms.some((f) => f.includes('&lowbar;') && f.includes('&period;'))).toBe(true);
});

test('JSON errors and X-Echo carry every form; HTML pages too; successes and the switch off do not', async () => {
	ctx.sim.faults.echoKeyForms(true);
	const r = await call(`${ctx.sim.baseUrl}/partner/v1/videos/nope/download`, {
		key: DEMO_PARTNER_KEY,
	});
	expect(r.status).toBe(404);
	for (const form of keyForms(`Bearer ${DEMO_PARTNER_KEY}`)) {
		expect(r.json.detail.error.message).toContain(form);
		expect(header(r, 'x-echo')).toContain(form.replace(/\r?\n/g, ' '));
	}
	ctx.sim.faults.failNext({ status: 502, count: 1, htmlBody: true });
	const page = await call(`${ctx.sim.baseUrl}/external/v1/usage/me`, {
		key: DEMO_ENTERPRISE_KEY,
	});
	for (const form of keyForms(`Bearer ${DEMO_ENTERPRISE_KEY}`)) expect(page.text).toContain(form);
	const ok = await call(`${ctx.sim.baseUrl}/partner/v1/content`, { key: DEMO_PARTNER_KEY });
	expect(ok.text).not.toContain(Buffer.from(DEMO_PARTNER_KEY).toString('base64'));
	ctx.sim.faults.clear();
	const off = await call(`${ctx.sim.baseUrl}/partner/v1/videos/nope/download`, {
		key: DEMO_PARTNER_KEY,
	});
	expect(off.text).not.toContain(SECRET);
});
