/** Content-Disposition values for the four modes of setVideoFile. */
import { rfc3986 } from './signing';
import type { VideoFile } from './types';

function isAscii(s: string): boolean {
	return /^[\x20-\x7e]*$/.test(s);
}

function quoted(s: string): string {
	return s.replace(/["\\]/g, '\\$&');
}

function extensionOf(name: string): string {
	const m = /\.([A-Za-z0-9]+)$/.exec(name);
	return m ? (m[1] as string).toLowerCase() : 'mov';
}

/** RFC 6266 + RFC 5987: an ASCII fallback name plus the real UTF-8 name. */
export function extendedDisposition(fileName: string): string {
	return `attachment; filename="fallback.${extensionOf(fileName)}"; filename*=UTF-8''${rfc3986(fileName)}`;
}

/** The response-content-disposition the signed URL carries (undefined in mode 'none'). */
export function urlDisposition(file: VideoFile): string | undefined {
	switch (file.disposition) {
		case 'none':
			return undefined;
		case 'filename*':
			return extendedDisposition(file.fileName);
		default:
			return isAscii(file.fileName)
				? `attachment; filename="${quoted(file.fileName)}"`
				: extendedDisposition(file.fileName);
	}
}

/**
 * The Content-Disposition header storage sends (undefined in modes 'url-only' and 'none').
 * In mode 'filename' a non-ASCII name goes out as raw UTF-8 bytes, as some servers do.
 */
export function headerDisposition(file: VideoFile): string | undefined {
	switch (file.disposition) {
		case 'filename*':
			return extendedDisposition(file.fileName);
		case 'filename':
			return Buffer.from(`attachment; filename="${quoted(file.fileName)}"`, 'utf8').toString(
				'latin1',
			);
		default:
			return undefined;
	}
}

export function formatOf(file: VideoFile): string {
	return extensionOf(file.fileName);
}
