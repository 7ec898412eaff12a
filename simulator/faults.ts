/**
 * Fault switches of one simulator instance. Counted faults are consumed by the requests
 * they hit; reset() / faults.clear() turn everything off.
 */
import { ByteFaults } from './byte-faults';
import { ClockFaults } from './clock';
import { FieldFaults } from './field-faults';
import { pathMatches, type PathMatcher } from './path-match';
import { TimeFaults } from './time-faults';
import type {
	EndCursorStyle,
	FailNextOptions,
	PartnerPagingFault,
	RangedFault,
	ResetConnectionsOptions,
} from './types';
import type { WanLink } from './wan-link';

/** A misbehaving Partner list (partnerPaging) ends after this many pages. */
export const PAGING_FAULT_PAGES = 50;

// Still exported from here: switch modules written before path-match.ts import them from faults.ts.
export { pathMatches, type PathMatcher };

export interface ApiRedirect {
	to: 'other' | 'same';
	path?: PathMatcher;
	status?: 301 | 302 | 303 | 307 | 308;
}

interface Counted<T> {
	left: number;
	o: T;
}

function takeFrom<T>(list: Array<Counted<T>>, match: (o: T) => boolean): T | undefined {
	const entry = list.find((e) => e.left > 0 && match(e.o));
	if (!entry) return undefined;
	entry.left--;
	if (entry.left <= 0) list.splice(list.indexOf(entry), 1);
	return entry.o;
}

export class FaultState {
	fails: Array<Counted<FailNextOptions>> = [];
	resets: Array<Counted<ResetConnectionsOptions>> = [];
	cursorRejectPage: number | null = null;
	cuts: Array<Counted<number>> = [];
	wrongLengths: Array<Counted<number>> = [];
	extraBytes: Array<Counted<number>> = [];
	slowBytesPerSecond = 0;
	/** The wanLink switch: per-connection cap, round trip, link cap (undefined: loopback speed). */
	wan: WanLink | undefined;
	rangedFaults: Array<Counted<RangedFault>> = [];
	earlyExpiries = 0;
	/** Signatures of URLs issued while expireUrlsEarly was armed. */
	readonly earlyExpiredSignatures = new Set<string>();
	refusals: Array<Counted<400 | 401 | 403 | 410>> = [];
	redirects = 0;
	nonJson: Array<Counted<{ path: PathMatcher }>> = [];
	nullable = false;
	extra = false;
	edge = false;
	endCursor: EndCursorStyle;
	apiRedirects: Array<Counted<ApiRedirect>> = [];
	oversizeBodies: Array<Counted<{ path: PathMatcher; bytes: number }>> = [];
	echoAuthorization = false;
	/** echoAuthorization, plus the key in every encoding of key-forms.ts. */
	echoKeyForms = false;
	partnerPaging: PartnerPagingFault = 'off';
	enterpriseEmptyPages = false;
	/**
	 * Called once a search page has been built, before it is sent: a test changes the collection
	 * between pages, or the page itself (fewer videos than per_page).
	 */
	afterSearchPage: ((page: number, body: Record<string, unknown>) => void) | undefined;
	purchaseTimesInMs = false;
	readonly missingMasters = new Set<string>();
	/** storagePageFor: videos whose every storage GET is a page ('html') or empty ('empty'). */
	readonly videoPages = new Map<string, 'html' | 'empty'>();
	/** apiNotHttp: API requests left to answer with bytes that are not HTTP. */
	notHttp = 0;
	/** Field hardening II switches (field-faults.ts). */
	readonly field = new FieldFaults();
	/** Field hardening III switches (byte-faults.ts). */
	readonly bytes = new ByteFaults();
	/** GridBank's clock offset and its Date header (clock.ts). */
	readonly clock = new ClockFaults();
	/** Field hardening III switches (time-faults.ts). */
	readonly time = new TimeFaults();

	constructor(private readonly defaultEndCursor: EndCursorStyle) {
		this.endCursor = defaultEndCursor;
	}

	clear(): void {
		this.afterSearchPage = undefined;
		this.fails = [];
		this.resets = [];
		this.cursorRejectPage = null;
		this.cuts = [];
		this.wrongLengths = [];
		this.extraBytes = [];
		this.slowBytesPerSecond = 0;
		this.wan = undefined;
		this.rangedFaults = [];
		this.earlyExpiries = 0;
		this.earlyExpiredSignatures.clear();
		this.refusals = [];
		this.redirects = 0;
		this.nonJson = [];
		this.nullable = false;
		this.extra = false;
		this.edge = false;
		this.endCursor = this.defaultEndCursor;
		this.apiRedirects = [];
		this.oversizeBodies = [];
		this.echoAuthorization = false;
		this.echoKeyForms = false;
		this.partnerPaging = 'off';
		this.enterpriseEmptyPages = false;
		this.purchaseTimesInMs = false;
		this.missingMasters.clear();
		this.videoPages.clear();
		this.notHttp = 0;
		this.field.clear();
		this.bytes.clear();
		this.clock.clear();
		this.time.clear();
	}

	takeApiRedirect(rawPath: string): ApiRedirect | undefined {
		return takeFrom(this.apiRedirects, (o) => pathMatches(o.path, rawPath));
	}

	/** Padding bytes for a 200 API answer on this path (the oversizeApiBody fault). */
	takeOversize(rawPath: string): number | undefined {
		return takeFrom(this.oversizeBodies, (o) => pathMatches(o.path, rawPath))?.bytes;
	}

	takeFail(target: 'api' | 'storage', rawPath: string): FailNextOptions | undefined {
		return takeFrom(
			this.fails,
			(o) => (o.target ?? 'api') === target && pathMatches(o.path, rawPath),
		);
	}

	takeReset(target: 'api' | 'storage', rawPath: string): ResetConnectionsOptions | undefined {
		return takeFrom(
			this.resets,
			(o) => (o.target ?? 'api') === target && pathMatches(o.path, rawPath),
		);
	}

	/** A fault for a ranged GET that does not start at byte 0 (a parallel segment or a resume). */
	takeRangedFault(): RangedFault | undefined {
		return takeFrom(this.rangedFaults, () => true);
	}

	takeCut(): number | undefined {
		return takeFrom(this.cuts, () => true);
	}

	takeWrongLength(): number | undefined {
		return takeFrom(this.wrongLengths, () => true);
	}

	takeExtraBytes(): number | undefined {
		return takeFrom(this.extraBytes, () => true);
	}

	takeRefusal(): 400 | 401 | 403 | 410 | undefined {
		return takeFrom(this.refusals, () => true);
	}

	takeNonJson(rawPath: string): boolean {
		return takeFrom(this.nonJson, (o) => pathMatches(o.path, rawPath)) !== undefined;
	}

	takeEarlyExpiry(): boolean {
		if (this.earlyExpiries <= 0) return false;
		this.earlyExpiries--;
		return true;
	}

	takeRedirect(): boolean {
		if (this.redirects <= 0) return false;
		this.redirects--;
		return true;
	}

	takeCursorReject(page: number): boolean {
		if (this.cursorRejectPage !== page) return false;
		this.cursorRejectPage = null;
		return true;
	}
}
