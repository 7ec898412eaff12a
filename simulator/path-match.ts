// Which request paths a fault switch applies to: every switch module's matcher.

/** A substring of the raw path, a pattern, or undefined for every path. */
export type PathMatcher = string | RegExp | undefined;

export function pathMatches(matcher: PathMatcher, rawPath: string): boolean {
	if (matcher === undefined) return true;
	if (typeof matcher === 'string') return rawPath.includes(matcher);
	matcher.lastIndex = 0;
	return matcher.test(rawPath);
}
