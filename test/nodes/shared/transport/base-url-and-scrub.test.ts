// The two pure checks behind the hardening: which Base URLs are accepted, and which forms of a
// key are scrubbed from server text. (The engine tests in redirects.test.ts and
// echoed-key.test.ts prove the nodes use them.)
import { checkBaseUrl, sameBaseUrl } from '../../../../nodes/shared/transport/base-url';
import { scrubText, scrubValue, secretsOf } from '../../../../nodes/shared/transport/scrub';

describe('checkBaseUrl', () => {
	test.each([
		['https://api2.gridbank.io/', 'https://api2.gridbank.io'],
		['HTTPS://API2.gridbank.io:443', 'https://api2.gridbank.io'],
		['https://gateway.example.com/gridbank//', 'https://gateway.example.com/gridbank'],
		['http://localhost:4010', 'http://localhost:4010'],
		['http://127.255.0.9:80', 'http://127.255.0.9'],
		['http://[::1]:4010/', 'http://[::1]:4010'],
		['  https://api2.gridbank.io\n', 'https://api2.gridbank.io'],
	])('%j is accepted as %s', (raw, expected) => {
		expect(checkBaseUrl(raw)).toEqual({ ok: true, baseUrl: expected });
	});

	test.each([
		['http://api2.gridbank.io', 'must start with https://'],
		['http://localhost.evil.example', 'must start with https://'],
		['http://127.0.0.1.evil.example', 'must start with https://'],
		['http://[::2]', 'must start with https://'],
		['api2.gridbank.io', 'is not a valid http(s) URL'],
		['', 'is not a valid http(s) URL'],
		['https://a:b@api2.gridbank.io', 'contains a user name and a password'],
		['https://api2.gridbank.io?', 'contains a query string'],
		['https://api2.gridbank.io/#', 'contains a fragment'],
	])('%j is refused: %s', (raw, message) => {
		const result = checkBaseUrl(raw);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.message).toBe(`The credential's Base URL ${message}`);
	});

	test('a state saved under an equivalent Base URL still belongs to it', () => {
		expect(sameBaseUrl('https://API2.gridbank.io:443/', 'https://api2.gridbank.io')).toBe(true);
		expect(sameBaseUrl('https://staging.gridbank.io', 'https://api2.gridbank.io')).toBe(false);
	});
});

describe('scrub', () => {
	const key = 'apik_7f3a.Xk29/secret"part';
	const secrets = secretsOf(key);

	test('the whole key, the secret after the dot, JSON-escaped and URL-encoded forms', () => {
		const text = [
			key,
			'Xk29/secret"part',
			JSON.stringify(key),
			'Xk29\\/secret\\"part',
			encodeURIComponent(key),
		].join(' | ');
		const scrubbed = scrubText(text, secrets);
		expect(scrubbed).not.toMatch(/Xk29/);
		expect(scrubbed).toContain('[redacted]');
	});

	test('parsed JSON: values and names', () => {
		expect(scrubValue({ [key]: ['Bearer ' + key, 3, null] }, secrets)).toEqual({
			'[redacted]': ['Bearer [redacted]', 3, null],
		});
	});

	test('a short secret part could be a common word: only the whole key is scrubbed then', () => {
		expect(scrubText('apik_x.error happened: error', secretsOf('apik_x.error'))).toBe(
			'[redacted] happened: error',
		);
	});
});

describe('scrub: every encoding of the key', () => {
	const key = 'apik_7f3a.Xk29/secret+part_Q';
	const secret = 'Xk29/secret+part_Q';
	const secrets = secretsOf(key);
	const b64 = (s: string) => Buffer.from(s).toString('base64');
	const b64url = (s: string) => Buffer.from(s).toString('base64url');
	const percentAll = (s: string) =>
		[...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
	const entities = (s: string, hex: boolean) =>
		[...s]
			.map((c) => (hex ? `&#x${c.charCodeAt(0).toString(16)};` : `&#${c.charCodeAt(0)};`))
			.join('');

	test.each([
		['base64 of the key', b64(key)],
		['base64url of the key', b64url(key)],
		['base64 of "Bearer <key>"', b64(`Bearer ${key}`)],
		['base64url of "Bearer <key>"', b64url(`Bearer ${key}`)],
		['base64 of the secret', b64(secret)],
		['base64url of the secret', b64url(secret)],
		['base64 of "user:<key>" (Basic)', b64(`user:${key}`)],
		['base64 of the key with its slashes JSON-escaped', b64(`xx${key}`).replace(/\//g, '\\/')],
		['hex, lower case', Buffer.from(key).toString('hex')],
		['hex, upper case', Buffer.from(secret).toString('hex').toUpperCase()],
		['\\x escapes', [...Buffer.from(secret)].map((b) => `\\x${b.toString(16)}`).join('')],
		['the key upper case', key.toUpperCase()],
		['the secret in mixed case', 'xK29/SeCrEt+pArT_q'],
		['every character percent-encoded', percentAll(key)],
		['every character percent-encoded, upper case', percentAll(secret).toUpperCase()],
		['decimal HTML entities', entities(key, false)],
		['hex HTML entities', entities(secret, true).toUpperCase()],
		['named HTML entities', 'apik&lowbar;7f3a&period;Xk29&sol;secret&plus;part&UnderBar;Q'],
		['entities mixed with plain characters', 'apik_7f3a.X&#107;29&#x2F;se&#99;ret+part_Q'],
		[
			'the \\u-escaped key',
			[...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
		],
		['the key cut after 12 characters of the secret', `${key.slice(0, 10 + 12)}…`],
		['the secret cut after 12 characters', `(${secret.slice(0, 12)}...)`],
		[
			'base64 of the key cut after 12 characters of the secret',
			b64(key.slice(0, 22)).replace(/=+$/, ''),
		],
	])('%s', (_label, form) => {
		const scrubbed = scrubText(`before ${form} after`, secrets);
		expect(scrubbed).toContain('[redacted]');
		expect(scrubbed.startsWith('before ')).toBe(true);
		expect(scrubbed.endsWith(' after')).toBe(true);
		// Nothing of the secret is left to read: at most "Bearer " (base64: QmVhcmVyIG) and padding.
		expect(scrubbed.length).toBeLessThanOrEqual(`before [redacted] after`.length + 12);
	});

	test('a cut copy with fewer than 12 characters of the secret, and ordinary text, are left alone', () => {
		const text = `Bearer ${key.slice(0, 10 + 11)}… and the secret word part, 7f3a, Xk29`;
		expect(scrubText(text, secrets)).toBe(text);
	});

	test('an Enterprise key (no secret part) is scrubbed in its forms too, cut after 12 characters', () => {
		const ent = 'ent_live_0123456789abcdef';
		const entSecrets = secretsOf(ent);
		for (const form of [
			b64(`Bearer ${ent}`),
			ent.toUpperCase(),
			percentAll(ent),
			`${ent.slice(0, 12)}…`,
		])
			expect(scrubText(form, entSecrets)).not.toMatch(/0123|MDEy|ent_live_012/i);
	});

	test('linear: a 4 MiB body with no key and one with the key every 1 KiB are scrubbed in one pass each', () => {
		const clean = 'x'.repeat(1000).concat(' 6170 &#97; %61 ').repeat(4096);
		expect(scrubText(clean, secrets)).toBe(clean);
		const dirty = 'y'
			.repeat(1000)
			.concat(b64(`Bearer ${key}`))
			.repeat(4096);
		expect(scrubText(dirty, secrets).split('[redacted]')).toHaveLength(4097);
	});
});
