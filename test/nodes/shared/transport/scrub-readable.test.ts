// Field hardening IV (issue 34, points 2 and 3): the forms in which a secret stayed readable
// after scrubbing. Each output is read back the way a person or a decoder would (whitespace,
// soft breaks and separators dropped, hex and base64 decoded) and must hold no run of 12
// characters of the secret. (Engine tests: echoed-key-forms.test.ts with the simulator's forms.)
import {
	scrubText,
	scrubValue,
	scrubValueInSlices,
	secretsOf,
	SLICE,
} from '../../../../nodes/shared/transport/scrub';
import { xxd } from '../../../../simulator/key-forms';

const key = 'apik_7f3a.Zq/secret+part_k0123456789';
const secret = key.slice(key.indexOf('.') + 1);
const s3Secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const secrets = secretsOf(key, s3Secret);

const hex = (s: string) => Buffer.from(s).toString('hex');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const wrap = (s: string, width: number, eol = '\r\n') =>
	s.match(new RegExp(`.{1,${width}}`, 'g'))!.join(eol);

/** hexdump -C's layout: offset, 16 pairs in two halves, the text column between bars. */
function hexdumpC(text: string): string {
	const bytes = Buffer.from(text);
	const lines: string[] = [];
	for (let at = 0; at < bytes.length; at += 16) {
		const chunk = [...bytes.subarray(at, at + 16)];
		const pairs = chunk.map((b) => b.toString(16).padStart(2, '0'));
		const hexPart = `${pairs.slice(0, 8).join(' ')}  ${pairs.slice(8).join(' ')}`.padEnd(48);
		const shown = chunk.map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
		lines.push(`${at.toString(16).padStart(8, '0')}  ${hexPart} |${shown}|`);
	}
	return lines.join('\n');
}

/** Every way the output reads: joined up, hex-decoded (dump columns dropped), base64-decoded. */
function readings(out: string): string[] {
	const dumpHex = out
		.split('\n')
		.map((line) => line.replace(/^\s*[0-9a-f]{8}:?/i, '').replace(/(\s{2,}|\|).*$/, ''))
		.join('');
	const dumpText = out
		.split('\n')
		.map(
			(line) =>
				/\|(.*)\|\s*$/.exec(line)?.[1] ?? /^[0-9a-f]{8}: .{39} {2}(.*)$/.exec(line)?.[1] ?? '',
		)
		.join('');
	const joined = out.replace(/=\r?\n|\s+/g, '');
	const hexDigits = (s: string) => s.replace(/[^0-9a-f]/gi, '');
	const fromHex = (s: string) =>
		[0, 1].map((shift) => Buffer.from(hexDigits(s).slice(shift), 'hex').toString('latin1'));
	const fromB64 = [0, 1, 2, 3].map((shift) =>
		Buffer.from(joined.replace(/[^A-Za-z0-9+/]/g, '').slice(shift), 'base64').toString('latin1'),
	);
	return [out, joined, dumpText, ...fromHex(joined), ...fromHex(dumpHex), ...fromB64];
}

function expectUnreadable(out: string, ...hidden: string[]) {
	for (const reading of readings(out))
		for (const h of hidden)
			for (let at = 0; at + 12 <= h.length; at++)
				expect({
					at,
					found: reading.toLowerCase().includes(h.slice(at, at + 12).toLowerCase()),
				}).toEqual({
					at,
					found: false,
				});
}

test('point 2: hex of a key holding "3" is scrubbed whole, not up to the 3', () => {
	const out = scrubText(`before ${hex(key)} after`, secrets);
	expect(out).toBe('before [redacted] after');
});

test.each([
	['hex with ":" between pairs', hex(key).match(/../g)!.join(':')],
	['hex with spaces between pairs, upper case', hex(key).match(/../g)!.join(' ').toUpperCase()],
	['hex with "-" between pairs', hex(secret).match(/../g)!.join('-')],
	['the key split by a space', `${key.slice(0, 18)} ${key.slice(18)}`],
	['the key split by a newline', `${key.slice(0, 20)}\r\n${key.slice(20)}`],
	['the key across a quoted-printable soft break', `${key.slice(0, 20)}=\r\n${key.slice(20)}`],
	[
		'base64 wrapped at 76 columns',
		wrap(b64(`${'x'.repeat(30)}Bearer ${key}${'y'.repeat(30)}`), 76),
	],
	['base64 wrapped at 76 columns with LF', wrap(b64(`Authorization: Bearer ${key}`), 20, '\n')],
	['an xxd dump', xxd(`GET / HTTP/1.1\r\nAuthorization: Bearer ${key}\r\n`)],
	['a hexdump -C dump', hexdumpC(`Authorization: Bearer ${key}\r\n\r\n`)],
	['12 characters from the middle of the secret', `…${secret.slice(5, 17)}…`],
	['the middle of the secret in hex', hex(secret.slice(3, 19))],
])('%s', (_label, form) => {
	const out = scrubText(`before ${form} after`, secrets);
	expect(out).toContain('[redacted]');
	expectUnreadable(out, secret);
});

test('several secrets: the storage secret in its forms too, the API key beside it', () => {
	for (const form of [
		s3Secret,
		hex(s3Secret).match(/../g)!.join(':'),
		wrap(b64(`aws_secret_access_key = ${s3Secret}`), 10),
		`${s3Secret.slice(0, 20)} ${s3Secret.slice(20)}`,
		s3Secret.slice(10, 24),
	]) {
		const out = scrubText(`key ${key}; storage ${form}.`, secrets);
		expectUnreadable(out, secret, s3Secret);
	}
});

test('runs shorter than 12 characters, and ordinary text, are left alone', () => {
	const text = `part of it: ${secret.slice(0, 11)}, ${hex(secret.slice(2, 13))}; 0123 4567 89ab cdef`;
	expect(scrubText(text, secrets)).toBe(text);
});

test('point 4: a large value is scrubbed in slices with the same result, keys across slice ends included', async () => {
	const filler = 'lorem ipsum '.repeat(Math.ceil(SLICE / 12));
	// Keys in several forms, placed across the first slice's end and elsewhere.
	const text = [
		filler.slice(0, SLICE - 10),
		key,
		filler,
		hex(key).match(/../g)!.join(':'),
		filler.slice(0, SLICE - 37),
		wrap(b64(`Bearer ${key}`), 76),
		filler,
	].join('');
	const value = { data: [{ title: text, [key]: 'x' }], note: `short ${key}` };
	const sliced = (await scrubValueInSlices(value, secrets)) as typeof value;
	expect(sliced).toEqual(scrubValue(value, secrets));
	expect(sliced.data[0]!.title.split('[redacted]')).toHaveLength(4);
	expectUnreadable(sliced.data[0]!.title.slice(SLICE - 200, SLICE + 200), secret);
});
