// The fault switches a test or the demo flips (sim.faults.*): each checks its arguments and sets
// what the Engine's fault state (faults.ts and its field, byte, clock and time modules) consults.
import type { Engine } from './engine';
import type { FailNextOptions, Faults, ResetConnectionsOptions } from './types';
import { UnevenLink } from './uneven-link';
import { WanLink } from './wan-link';

export function faultSwitches(engine: Engine): Faults {
	const count = (n: number | undefined, name: string): number => {
		const c = n ?? 1;
		if (!Number.isInteger(c) || c < 1) throw new Error(`${name}: count must be a positive integer`);
		return c;
	};
	return {
		revokeKey(key: string): void {
			const w = engine.world;
			const partner = w.partnerKeys.get(key);
			if (partner) partner.revoked = true;
			else if (w.enterpriseAccounts.has(key)) w.enterpriseAccounts.delete(key);
			else throw new Error('revokeKey: unknown key');
		},
		withdrawPartnerAccess(key: string, o?: { afterRequests?: number }): void {
			const account = engine.world.partnerAccountOfKey(key);
			if (o?.afterRequests && o.afterRequests > 0) account.withdrawAfter = o.afterRequests;
			else account.withdrawn = true;
		},
		setSubscription(key: string, active: boolean): void {
			engine.world.enterpriseAccount(key).subscription = active;
		},
		failNext(o: FailNextOptions): void {
			engine.faults.fails.push({ left: count(o.count, 'failNext'), o: { ...o } });
		},
		resetConnections(o: ResetConnectionsOptions): void {
			engine.faults.resets.push({ left: count(o.count, 'resetConnections'), o: { ...o } });
		},
		rejectCursorOnPage(n: number): void {
			if (!Number.isInteger(n) || n < 2)
				throw new Error('rejectCursorOnPage: page 1 has no cursor; n must be >= 2');
			engine.faults.cursorRejectPage = n;
		},
		cutDownloadAfter(bytes: number, n?: number): void {
			engine.faults.cuts.push({ left: count(n, 'cutDownloadAfter'), o: bytes });
		},
		declareWrongLength(delta: number, n?: number): void {
			engine.faults.wrongLengths.push({ left: count(n, 'declareWrongLength'), o: delta });
		},
		sendExtraBytes(extra: number, n?: number): void {
			if (!Number.isInteger(extra) || extra < 1)
				throw new Error('sendExtraBytes: extra must be a positive integer');
			engine.faults.extraBytes.push({ left: count(n, 'sendExtraBytes'), o: extra });
		},
		wanLink(o): void {
			engine.faults.wan = o ? new WanLink(o) : undefined;
		},
		unevenLink(o): void {
			const wan = engine.faults.wan;
			if (o && !wan)
				throw new Error('unevenLink: set wanLink first (its cap is what the profile shares out)');
			if (wan) wan.uneven = o ? new UnevenLink(o) : undefined;
		},
		faultRangedRequests(o, n?: number): void {
			engine.faults.rangedFaults.push({ left: count(n, 'faultRangedRequests'), o: { ...o } });
		},
		slowDownload(bytesPerSecond: number): void {
			engine.faults.slowBytesPerSecond = Math.max(0, bytesPerSecond);
		},
		expireUrlsEarly(n?: number): void {
			engine.faults.earlyExpiries += count(n, 'expireUrlsEarly');
		},
		storageRefuse(status: 400 | 401 | 403 | 410, n: number): void {
			engine.faults.refusals.push({ left: count(n, 'storageRefuse'), o: status });
		},
		redirectStorage(n?: number): void {
			engine.faults.redirects += count(n, 'redirectStorage');
		},
		nonJsonOkBody(path: string | RegExp, n?: number): void {
			engine.faults.nonJson.push({ left: count(n, 'nonJsonOkBody'), o: { path } });
		},
		nullableFieldsNull(on: boolean): void {
			engine.faults.nullable = on;
		},
		extraFields(on: boolean): void {
			engine.faults.extra = on;
		},
		edgeBlock(on: boolean): void {
			engine.faults.edge = on;
		},
		endCursorStyle(style): void {
			engine.faults.endCursor = style;
		},
		misplaceRange(offset: number, n?: number, o?: { resumesOnly?: boolean }): void {
			if (!Number.isInteger(offset) || offset < 1)
				throw new Error('misplaceRange: offset must be a positive integer');
			engine.faults.field.misplacedRanges.push({
				left: count(n, 'misplaceRange'),
				o: { offset, resumesOnly: o?.resumesOnly === true },
			});
		},
		ignoreRange(n?: number): void {
			engine.faults.field.ignoredRanges.push({ left: count(n, 'ignoreRange'), o: true });
		},
		storageServesPage(kind: 'html' | 'empty', n?: number): void {
			engine.faults.field.pages.push({ left: count(n, 'storageServesPage'), o: kind });
		},
		signedUrlValue(value: unknown, n?: number): void {
			engine.faults.field.signedUrls.push({ left: count(n, 'signedUrlValue'), o: { value } });
		},
		okBodyInstead(path: string | RegExp, body: unknown, n?: number): void {
			engine.faults.field.bodies.push({ left: count(n, 'okBodyInstead'), o: { path, body } });
		},
		rawDisposition(value: string, n?: number): void {
			engine.faults.field.dispositions.push({ left: count(n, 'rawDisposition'), o: value });
		},
		misstateFileSize(delta: number, n?: number): void {
			if (!Number.isInteger(delta) || delta === 0)
				throw new Error('misstateFileSize: delta must be a non-zero integer');
			engine.faults.field.sizeDeltas.push({ left: count(n, 'misstateFileSize'), o: delta });
		},
		partnerForbidden(path: string | RegExp, code: string, n?: number): void {
			engine.faults.field.forbiddens.push({
				left: count(n, 'partnerForbidden'),
				o: { path, code },
			});
		},
		dripApi(msPerByte: number): void {
			engine.faults.field.apiDripMs = Math.max(0, msPerByte);
		},
		clockOffset(ms: number): void {
			if (!Number.isFinite(ms)) throw new Error('clockOffset: ms must be a finite number');
			engine.faults.clock.offsetMs = ms;
		},
		omitDateHeader(on: boolean): void {
			engine.faults.clock.dateHeader = !on;
		},
		oversizeApiBody(path: string | RegExp, bytes: number, n?: number): void {
			if (!(bytes > 0))
				throw new Error('oversizeApiBody: bytes must be positive (Infinity: endless)');
			engine.faults.oversizeBodies.push({
				left: count(n, 'oversizeApiBody'),
				o: { path, bytes },
			});
		},
		clear(): void {
			engine.faults.clear();
		},
		redirectApi(o): void {
			engine.faults.apiRedirects.push({ left: count(o.count, 'redirectApi'), o: { ...o } });
		},
		echoAuthorization(on: boolean): void {
			engine.faults.echoAuthorization = on;
		},
		echoKeyForms(on: boolean): void {
			engine.faults.echoKeyForms = on;
		},
		partnerPaging(style): void {
			engine.faults.partnerPaging = style;
		},
		enterpriseEmptyPages(on: boolean): void {
			engine.faults.enterpriseEmptyPages = on;
		},
		purchaseTimesInMs(on: boolean): void {
			engine.faults.purchaseTimesInMs = on;
		},
		missingMaster(videoKey: string): void {
			engine.faults.missingMasters.add(videoKey);
		},
		replaceObject(o): void {
			engine.faults.bytes.replaceObject(o);
		},
		omitValidators(on: boolean | 'etag'): void {
			engine.faults.bytes.omitValidators = on;
		},
		busyParts(retryAfter: string, n?: number): void {
			engine.faults.bytes.busyParts += count(n, 'busyParts');
			engine.faults.bytes.busyRetryAfter = retryAfter;
		},
		stripValidatorsOnParts(n?: number): void {
			engine.faults.bytes.strippedParts += count(n, 'stripValidatorsOnParts');
		},
		claimSize(total: number, n?: number): void {
			if (!Number.isSafeInteger(total) || total < 1)
				throw new Error('claimSize: total must be a positive safe integer');
			engine.faults.bytes.claimedSizes.push({ left: count(n, 'claimSize'), o: total });
		},
		stallAfter(bytes: number, ms: number, n?: number): void {
			engine.faults.bytes.stalls.push({
				left: count(n, 'stallAfter'),
				o: { afterBytes: bytes, ms },
			});
		},
		sendChecksum(kind, o): void {
			engine.faults.bytes.checksum = kind ? { kind, wrong: o?.wrong === true } : undefined;
		},
		fileSizeValue(value: unknown, n?: number): void {
			engine.faults.bytes.fileSizes.push({ left: count(n, 'fileSizeValue'), o: { value } });
		},
		apiNotHttp(n?: number): void {
			engine.faults.notHttp += count(n, 'apiNotHttp');
		},
		storagePageFor(videoKey, kind): void {
			if (kind) engine.faults.videoPages.set(videoKey, kind);
			else engine.faults.videoPages.delete(videoKey);
		},
		rateHeaders(o, n?: number): void {
			engine.faults.time.rateHeaders.push({ left: count(n, 'rateHeaders'), o: { ...o } });
		},
		endlessPartnerList(on: boolean): void {
			engine.faults.time.endlessList = on;
		},
	};
}
