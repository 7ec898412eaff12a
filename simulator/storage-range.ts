/** The Range header as S3 reads it: one byte range, or the whole file when malformed. */
export function parseRange(
	header: string,
	size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
	const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
	if (!m) return undefined; // malformed or several ranges: ignored, the whole file is sent
	const [, a, b] = m as unknown as [string, string, string];
	if (a === '' && b === '') return undefined;
	if (a === '') {
		const suffix = Number(b);
		if (suffix === 0 || size === 0) return 'unsatisfiable';
		return { start: Math.max(0, size - suffix), end: size };
	}
	const start = Number(a);
	if (b !== '' && Number(b) < start) return undefined;
	if (start >= size) return 'unsatisfiable';
	return { start, end: b === '' ? size : Math.min(size, Number(b) + 1) };
}
