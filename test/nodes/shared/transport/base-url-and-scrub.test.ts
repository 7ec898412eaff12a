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
