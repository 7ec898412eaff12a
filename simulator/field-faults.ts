/**
 * Fault switches of field hardening II: storage that misplaces or ignores ranges or answers
 * with a page instead of the file, unusable signed URLs, API bodies of the wrong shape, and
 * servers that drip. Counted like the other faults; FaultState.clear() clears these too.
 */
import { pathMatches, type PathMatcher } from './path-match';

interface Counted<T> {
	left: number;
	o: T;
}

function take<T>(list: Array<Counted<T>>, match: (o: T) => boolean = () => true): T | undefined {
	const entry = list.find((e) => e.left > 0 && match(e.o));
	if (!entry) return undefined;
	entry.left--;
	if (entry.left <= 0) list.splice(list.indexOf(entry), 1);
	return entry.o;
}

export type StoragePage = 'html' | 'empty';

export class FieldFaults {
	misplacedRanges: Array<Counted<{ offset: number; resumesOnly: boolean }>> = [];
	ignoredRanges: Array<Counted<true>> = [];
	pages: Array<Counted<StoragePage>> = [];
	signedUrls: Array<Counted<{ value: unknown }>> = [];
	bodies: Array<Counted<{ path: PathMatcher; body: unknown }>> = [];
	sizeDeltas: Array<Counted<number>> = [];
	dispositions: Array<Counted<string>> = [];
	forbiddens: Array<Counted<{ path: PathMatcher; code: string }>> = [];
	/** API responses: ms between bytes of the body (headers are sent at once); 0 = off. */
	apiDripMs = 0;

	clear(): void {
		this.misplacedRanges = [];
		this.ignoredRanges = [];
		this.pages = [];
		this.signedUrls = [];
		this.bodies = [];
		this.apiDripMs = 0;
		this.sizeDeltas = [];
		this.dispositions = [];
		this.forbiddens = [];
	}

	takeDisposition(): string | undefined {
		return take(this.dispositions);
	}

	takeSizeDelta(): number | undefined {
		return take(this.sizeDeltas);
	}

	takeForbidden(rawPath: string): { code: string } | undefined {
		return take(this.forbiddens, (o) => pathMatches(o.path, rawPath));
	}

	/** `from`: the first byte the request asked for. */
	takeMisplacedRange(from: number): number | undefined {
		return take(this.misplacedRanges, (o) => !o.resumesOnly || from > 0)?.offset;
	}

	takeIgnoredRange(): boolean {
		return take(this.ignoredRanges) !== undefined;
	}

	takePage(): StoragePage | undefined {
		return take(this.pages);
	}

	takeSignedUrl(): { value: unknown } | undefined {
		return take(this.signedUrls);
	}

	takeBody(rawPath: string): { body: unknown } | undefined {
		return take(this.bodies, (o) => pathMatches(o.path, rawPath));
	}
}
