// Pure: file names from Content-Disposition, cleaned and cut to what file systems hold.
import {
	fileNameFromDisposition,
	fitFileName,
	sanitizeFileName,
} from '../../../../nodes/shared/download/file-name';

const raw = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('fileNameFromDisposition', () => {
	test.each([
		['attachment; filename="clip.mov"', 'clip.mov'],
		['attachment; filename="clip.mov', 'clip.mov'],
		['attachment; filename="a\\"b.mov"', 'a"b.mov'],
		['filename="clip.mov"', 'clip.mov'],
		['filename=clip.mov', 'clip.mov'],
		[raw('attachment; filename="Ünïcode – 4K.mov"'), 'Ünïcode – 4K.mov'],
		['attachment; filename="caf\u00e9.mov"', 'café.mov'],
		[`attachment; filename="fallback.mov"; filename*=UTF-8''%C3%9Cn%C3%AF.mov`, 'Ünï.mov'],
		['attachment', undefined],
	])('%p → %p', (value, expected) => expect(fileNameFromDisposition(value)).toBe(expected));
});

describe('sanitizeFileName', () => {
	test('bidirectional overrides, zero-width and other format characters, ":" removed', () => {
		expect(sanitizeFileName('invoice\u202Evom.exe')).toBe('invoicevom.exe');
		expect(sanitizeFileName('a\u200Bb\u2066c\uFEFF.mov')).toBe('abc.mov');
		expect(sanitizeFileName('C:clip: take 2.mov')).toBe('Cclip take 2.mov');
	});

	test('a long name is cut within 255 UTF-8 bytes, by whole characters, keeping its extension', () => {
		const name = `${'日本語'.repeat(40)}.mov`;
		const cut = sanitizeFileName(name);
		expect(Buffer.byteLength(cut, 'utf8')).toBeLessThanOrEqual(255);
		expect(cut.endsWith('.mov')).toBe(true);
		expect(cut).not.toContain('\uFFFD');
		expect(name.startsWith(cut.slice(0, -4))).toBe(true);
		const emoji = fitFileName(`${'😀'.repeat(100)}.mp4`);
		expect(Buffer.byteLength(emoji, 'utf8')).toBeLessThanOrEqual(255);
		expect(/^(😀)+\.mp4$/u.test(emoji)).toBe(true);
	});

	test('short names are kept as they are', () => {
		expect(fitFileName('clip.mov')).toBe('clip.mov');
	});
});
