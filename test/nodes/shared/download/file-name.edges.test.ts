// Pure: the downloaded file's name and MIME type from the storage response and the signed
// URL, cut to what file systems hold. (Disposition parsing and cleaning: file-name.test.ts beside this file.)
import {
	fitFileName,
	identifyFile,
	mimeFromExtension,
} from '../../../../nodes/shared/download/file-name';

const url = 'https://storage.example/masters/abc?sig=1';

describe('identifyFile', () => {
	test('Content-Disposition names the file; Content-Type gives the MIME type', () => {
		expect(
			identifyFile({
				contentDisposition: 'attachment; filename="clip.mp4"',
				contentType: 'video/mp4; codecs=avc1',
				url,
				videoId: 'k1',
			}),
		).toEqual({
			fileName: 'clip.mp4',
			mimeType: 'video/mp4',
		});
	});

	test("the signed URL's response-content-disposition when the response names none", () => {
		const signed = `${url}&response-content-disposition=${encodeURIComponent('attachment; filename="from-url.mov"')}`;
		expect(identifyFile({ url: signed, videoId: 'k1' })).toEqual({
			fileName: 'from-url.mov',
			mimeType: 'video/quicktime',
		});
	});

	test('the response header wins over the URL', () => {
		const signed = `${url}&response-content-disposition=${encodeURIComponent('attachment; filename="from-url.mov"')}`;
		expect(
			identifyFile({
				contentDisposition: 'attachment; filename="header.mov"',
				url: signed,
				videoId: 'k1',
			}).fileName,
		).toBe('header.mov');
	});

	test('an uninformative Content-Type gives way to the extension', () => {
		expect(
			identifyFile({
				contentDisposition: 'attachment; filename="a.webm"',
				contentType: 'application/octet-stream',
				url,
				videoId: 'k',
			}).mimeType,
		).toBe('video/webm');
		expect(
			identifyFile({
				contentDisposition: 'attachment; filename="a.MKV"',
				contentType: 'binary/octet-stream',
				url,
				videoId: 'k',
			}).mimeType,
		).toBe('video/x-matroska');
	});

	test('no name anywhere: "<video id>.<extension of the MIME type>", the id cleaned', () => {
		expect(
			identifyFile({ contentType: 'video/mp4', url, videoId: 'ocean/aerial_shot-0001' }),
		).toEqual({ fileName: 'ocean_aerial_shot-0001.mp4', mimeType: 'video/mp4' });
		expect(identifyFile({ url, videoId: 'k9' })).toEqual({
			fileName: 'k9.mov',
			mimeType: 'video/quicktime',
		});
		expect(identifyFile({ contentType: 'video/unknown-kind', url, videoId: 'k9' })).toEqual({
			fileName: 'k9.bin',
			mimeType: 'video/unknown-kind',
		});
	});

	test('a name that cleans to nothing falls back to the id; an id that cleans to nothing to "video"', () => {
		expect(
			identifyFile({
				contentDisposition: 'attachment; filename="..."',
				contentType: 'video/mp4',
				url,
				videoId: 'k2',
			}).fileName,
		).toBe('k2.mp4');
		expect(identifyFile({ contentType: 'video/mp4', url, videoId: '...' }).fileName).toBe(
			'video.mp4',
		);
	});

	test('a URL that does not parse is no name, not an error', () => {
		expect(identifyFile({ url: 'not a url', videoId: 'k3' })).toEqual({
			fileName: 'k3.mov',
			mimeType: 'video/quicktime',
		});
	});
});

describe('mimeFromExtension', () => {
	test.each([
		['a.mov', 'video/quicktime'],
		['A.MP4', 'video/mp4'],
		['x.mxf', 'application/mxf'],
		['x.tar.mpeg', 'video/mpeg'],
		['x.exe', undefined],
		['no-extension', undefined],
		['trailing.', undefined],
	])('%s → %p', (name, mime) => expect(mimeFromExtension(name)).toBe(mime));
});

describe('fitFileName', () => {
	test('at the limit nothing changes; one byte over, the stem is cut and the extension kept', () => {
		const exact = `${'a'.repeat(251)}.mov`;
		expect(fitFileName(exact)).toBe(exact);
		const over = `${'a'.repeat(252)}.mov`;
		expect(fitFileName(over)).toBe(`${'a'.repeat(251)}.mov`);
	});

	test('multi-byte characters are never split', () => {
		const name = `${'é'.repeat(10)}.mp4`; // 2 bytes each
		const fitted = fitFileName(name, 15);
		expect(fitted).toBe(`${'é'.repeat(5)}.mp4`);
		expect(Buffer.byteLength(fitted)).toBeLessThanOrEqual(15);
	});

	test('a long "extension" is not kept as one; trailing space left by the cut is removed', () => {
		expect(fitFileName(`${'a'.repeat(10)}.thisisnotanextension`, 12)).toBe('aaaaaaaaaa.t');
		expect(fitFileName('ab cd.mp4', 7)).toBe('ab.mp4');
	});
});
