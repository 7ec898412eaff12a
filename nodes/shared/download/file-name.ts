// The downloaded file's name and MIME type: Content-Disposition (RFC 6266, with RFC 5987
// filename* first), else the signed URL's response-content-disposition, else
// "<video id>.<extension of the MIME type>".
const MIME_BY_EXTENSION: Record<string, string> = {
	mov: 'video/quicktime',
	qt: 'video/quicktime',
	mp4: 'video/mp4',
	m4v: 'video/x-m4v',
	webm: 'video/webm',
	mkv: 'video/x-matroska',
	avi: 'video/x-msvideo',
	mxf: 'application/mxf',
	mpg: 'video/mpeg',
	mpeg: 'video/mpeg',
	jpg: 'image/jpeg',
	png: 'image/png',
};
const EXTENSION_BY_MIME: Record<string, string> = {
	'video/quicktime': 'mov',
	'video/mp4': 'mp4',
	'video/x-m4v': 'm4v',
	'video/webm': 'webm',
	'video/x-matroska': 'mkv',
	'video/x-msvideo': 'avi',
	'application/mxf': 'mxf',
	'video/mpeg': 'mpg',
	'image/jpeg': 'jpg',
	'image/png': 'png',
};
/** Content types that say nothing about the file, so the extension is the better guide. */
const UNINFORMATIVE = new Set(['application/octet-stream', 'binary/octet-stream', '']);

function decodeExtValue(value: string): string | undefined {
	// RFC 5987: charset'language'percent-encoded
	const match = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(value.trim());
	if (!match) return undefined;
	const [, charset, encoded] = match;
	try {
		if (/^utf-8$/i.test(charset)) return decodeURIComponent(encoded);
		if (/^iso-8859-1$/i.test(charset))
			return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
				String.fromCharCode(parseInt(hex, 16)),
			);
	} catch {
		return undefined;
	}
	return undefined;
}

/**
 * Header values reach Node one byte per character (latin1): a server sending the name as raw
 * UTF-8 shows up as "Ã\u009c…". Such a value is decoded; anything else is left as it came.
 */
function decodeRawUtf8(value: string): string {
	const codes = Array.from(value, (character) => character.charCodeAt(0));
	if (!codes.some((code) => code >= 0x80) || codes.some((code) => code > 0xff)) return value;
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'latin1'));
	} catch {
		return value;
	}
}

/** The file name a Content-Disposition value carries, filename* before filename. */
export function fileNameFromDisposition(disposition: string | undefined): string | undefined {
	if (!disposition) return undefined;
	const params = new Map<string, string>();
	// Parameters after the disposition type, or from the start when a server leaves the type out.
	const re = /(?:^|;)\s*([^\s=;"]+)\s*=\s*("(?:[^"\\]|\\.)*"?|[^;]*)/g;
	for (let m = re.exec(disposition); m; m = re.exec(disposition)) {
		const raw = m[2].trim();
		// A quoted value whose closing quote is missing keeps its last character.
		const unquoted = raw.startsWith('"')
			? raw.slice(1, raw.length > 1 && raw.endsWith('"') ? -1 : undefined)
			: raw;
		const value = raw.startsWith('"') ? unquoted.replace(/\\(.)/g, '$1') : raw;
		params.set(m[1].toLowerCase(), decodeRawUtf8(value));
	}
	const extended = params.get('filename*');
	const decoded = extended !== undefined ? decodeExtValue(extended) : undefined;
	return decoded || params.get('filename') || undefined;
}

// Control characters are exactly what this matches, to strip them.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** Invisible format characters (bidirectional overrides that disguise an extension, zero-width marks). */
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/** At most 255 UTF-8 bytes (what file systems allow), cut in the stem so the extension stays, by whole characters. */
export function fitFileName(name: string, maxBytes = 255): string {
	const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
	if (bytes(name) <= maxBytes) return name;
	const extension = /\.[A-Za-z0-9]{1,10}$/.exec(name)?.[0] ?? '';
	const stem = Array.from(name.slice(0, name.length - extension.length));
	const room = maxBytes - bytes(extension);
	let size = bytes(stem.join(''));
	while (stem.length && size > room) size -= bytes(stem.pop() as string);
	return `${stem.join('').trimEnd()}${extension}`;
}

/** No path separators, control or format characters, ":" or leading dots: the name cannot leave its folder or disguise itself. */
export function sanitizeFileName(name: string): string {
	return fitFileName(
		name
			.replace(CONTROL_CHARACTERS, '')
			.replace(FORMAT_CHARACTERS, '')
			.replace(/:/g, '')
			.replace(/[/\\]/g, '_')
			.replace(/^[.\s]+/, '')
			.trim(),
	);
}

export function mimeFromExtension(fileName: string): string | undefined {
	const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
	return extension ? MIME_BY_EXTENSION[extension] : undefined;
}

export interface FileIdentity {
	fileName: string;
	mimeType: string;
}

export function identifyFile(options: {
	contentDisposition?: string;
	contentType?: string;
	url: string;
	videoId: string;
}): FileIdentity {
	let fromUrl: string | undefined;
	try {
		fromUrl = fileNameFromDisposition(
			new URL(options.url).searchParams.get('response-content-disposition') ?? undefined,
		);
	} catch {
		fromUrl = undefined;
	}
	const given = [fileNameFromDisposition(options.contentDisposition), fromUrl]
		.map((name) => (name ? sanitizeFileName(name) : ''))
		.find((name) => name.length > 0);

	const contentType = (options.contentType ?? '').split(';')[0].trim().toLowerCase();
	const informative = !UNINFORMATIVE.has(contentType);
	const mimeType =
		(informative ? contentType : undefined) ??
		(given ? mimeFromExtension(given) : undefined) ??
		'video/quicktime';
	const fileName =
		given ??
		`${sanitizeFileName(options.videoId) || 'video'}.${EXTENSION_BY_MIME[mimeType] ?? 'bin'}`;
	return { fileName, mimeType };
}
