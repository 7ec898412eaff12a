/**
 * startSimulator: the API origin (Partner + Enterprise), the storage origin and a third
 * "redirect" origin, all on 127.0.0.1, sharing one Engine (state, faults, limiters) and
 * one request log.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stampDate } from './clock';
import { republishVideo, restoreVideos, withdrawVideos } from './collection-changes';
import { Engine, resolveOptions, type RequestContext } from './engine';
import { handleEnterprise } from './enterprise-routes';
import {
	echoAuthorization,
	edgeForbidden,
	enterpriseError,
	htmlError,
	json,
	partnerError,
	type ApiResponse,
} from './errors';
import { sendOversize } from './oversize-body';
import { keyForms } from './key-forms';
import { handlePartner } from './partner-routes';
import { handleStorage } from './storage';
import { WanLink } from './wan-link';
import type {
	DispositionMode,
	EnterpriseVideo,
	FailNextOptions,
	Faults,
	LoggedRequest,
	PartnerAccountInfo,
	ResetConnectionsOptions,
	Simulator,
	SimulatorOptions,
	Tier,
	VideoFile,
} from './types';

export interface InternalOptions extends SimulatorOptions {
	/** Called when a request's status is known (the cli's verbose mode). Never given headers to print. */
	onRequest?: (r: LoggedRequest) => void;
}

const FAIL_TEXT: Record<number, [string, string]> = {
	400: ['bad_request', 'Bad request'],
	404: ['not_found', 'Not found'],
	429: ['rate_limit_exceeded', 'Rate limit exceeded. Retry after the time given in Retry-After.'],
	500: ['internal_error', 'Internal server error'],
	502: ['bad_gateway', 'Bad gateway'],
	503: ['service_unavailable', 'Service temporarily unavailable'],
	504: ['gateway_timeout', 'Gateway timeout'],
};

function splitUrl(url: string | undefined): [string, string] {
	const u = url ?? '/';
	const q = u.indexOf('?');
	return q < 0 ? [u, ''] : [u.slice(0, q), u.slice(q + 1)];
}

function flatHeaders(req: IncomingMessage): Record<string, string | undefined> {
	const out: Record<string, string | undefined> = {};
	for (const [k, v] of Object.entries(req.headers)) out[k] = Array.isArray(v) ? v.join(', ') : v;
	return out;
}

function listen(server: Server, port: number): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve((server.address() as AddressInfo).port);
		});
	});
}

function closeServer(server: Server): Promise<void> {
	return new Promise((resolve) => {
		server.close(() => resolve());
		server.closeAllConnections();
	});
}

class SimulatorImpl implements Simulator {
	baseUrl = '';
	storageUrl = '';
	redirectUrl = '';
	readonly log: LoggedRequest[] = [];
	readonly engine: Engine;
	readonly faults: Faults;
	private readonly now: () => number;
	private readonly api: Server;
	private readonly storage: Server;
	private readonly redirect: Server;

	constructor(private readonly opts: InternalOptions) {
		const clock = opts.now ?? Date.now;
		// The clockOffset switch shifts everything GridBank dates (engine is set just below).
		this.now = () => clock() + (this.engine ? this.engine.faults.clock.offsetMs : 0);
		this.engine = new Engine(resolveOptions(opts), this.now);
		this.faults = this.makeFaults();
		const guard =
			(fn: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>) =>
			(req: IncomingMessage, res: ServerResponse) => {
				Promise.resolve()
					.then(() => fn(req, res))
					.catch((err: unknown) => {
						console.error(
							`[gridbank-simulator] handler error: ${err instanceof Error ? err.message : String(err)}`,
						);
						if (!res.headersSent) {
							res.writeHead(500, { 'Content-Type': 'application/json' });
							res.end('{"detail":"Internal simulator error"}');
						} else res.destroy();
					});
			};
		this.api = createServer(
			{ keepAliveTimeout: 5000 },
			guard((req, res) => this.onApi(req, res)),
		);
		this.storage = createServer(
			{ keepAliveTimeout: 5000 },
			guard((req, res) => this.onStorage('storage', req, res)),
		);
		this.redirect = createServer(
			{ keepAliveTimeout: 5000 },
			guard((req, res) => this.onStorage('redirect', req, res)),
		);
	}

	async start(): Promise<this> {
		const apiPort = await listen(this.api, this.opts.port ?? 0);
		const storagePort = await listen(this.storage, this.opts.storagePort ?? 0);
		const redirectPort = await listen(this.redirect, this.opts.redirectPort ?? 0);
		this.baseUrl = `http://127.0.0.1:${apiPort}`;
		this.storageUrl = `http://127.0.0.1:${storagePort}`;
		this.redirectUrl = `http://127.0.0.1:${redirectPort}`;
		this.engine.storageUrl = this.storageUrl;
		return this;
	}

	private record(
		target: LoggedRequest['target'],
		req: IncomingMessage,
		res: ServerResponse,
		rawPath: string,
		rawQuery: string,
		at: number,
	): LoggedRequest {
		const query: Record<string, string> = {};
		for (const [k, v] of new URLSearchParams(rawQuery)) query[k] = v;
		const entry: LoggedRequest = {
			target,
			method: req.method ?? 'GET',
			path: rawPath,
			query,
			headers: flatHeaders(req),
			status: 0,
			at,
		};
		this.log.push(entry);
		const limit = this.opts.logLimit;
		if (limit !== undefined && limit > 0 && this.log.length > limit + Math.ceil(limit / 10)) {
			this.log.splice(0, this.log.length - limit);
		}
		const notify = this.opts.onRequest;
		if (notify) res.once('close', () => notify(entry));
		return entry;
	}

	private onApi(req: IncomingMessage, res: ServerResponse): void {
		req.resume();
		const now = this.now();
		const [rawPath, rawQuery] = splitUrl(req.url);
		const entry = this.record('api', req, res, rawPath, rawQuery, now);
		const f = this.engine.faults;
		stampDate(res, now, f.clock);
		const ua = req.headers['user-agent'];
		let response: ApiResponse;
		let afterBytes: number | undefined;
		if (!ua || !ua.trim() || f.edge) {
			response = edgeForbidden();
		} else {
			if (f.notHttp > 0) {
				f.notHttp--;
				// Not HTTP at all: the client's parser fails, with no network error code.
				req.socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n');
				return;
			}
			const reset = f.takeReset('api', rawPath);
			if (reset && reset.afterBytes === undefined) {
				req.socket.destroy();
				return;
			}
			afterBytes = reset?.afterBytes;
			const redirect = f.takeApiRedirect(rawPath);
			const fail = redirect ? undefined : f.takeFail('api', rawPath);
			const forbidden =
				!redirect && !fail && rawPath.startsWith('/partner/')
					? f.field.takeForbidden(rawPath)
					: undefined;
			if (redirect) {
				const origin = redirect.to === 'other' ? this.redirectUrl : this.baseUrl;
				response = {
					status: redirect.status ?? 302,
					headers: { Location: `${origin}${req.url ?? '/'}` },
					body: null,
				};
			} else if (fail) response = this.failure(fail, rawPath, now);
			else if (forbidden) response = partnerError(403, forbidden.code, 'Forbidden.');
			else {
				const ctx: RequestContext = {
					method: req.method ?? 'GET',
					rawPath,
					query: new URLSearchParams(rawQuery),
					headers: req.headers,
					now,
				};
				if (rawPath.startsWith('/partner/')) response = handlePartner(this.engine, ctx);
				else if (rawPath.startsWith('/external/')) response = handleEnterprise(this.engine, ctx);
				else response = json(404, { detail: 'Not Found' });
				if (
					response.status === 200 &&
					/\/download$/.test(rawPath) &&
					response.body &&
					typeof response.body === 'object'
				) {
					const signed = f.field.takeSignedUrl();
					if (signed)
						response = { ...response, body: { ...(response.body as object), url: signed.value } };
				}
				const delta =
					response.status === 200 && /^\/external\/v1\/videos\/.+\/download$/.test(rawPath)
						? f.field.takeSizeDelta()
						: undefined;
				if (delta !== undefined) {
					const body = response.body as { file_size: number };
					response = { ...response, body: { ...body, file_size: body.file_size + delta } };
				}
				const sizeValue =
					response.status === 200 && /^\/external\/v1\/videos\/.+\/download$/.test(rawPath)
						? f.bytes.takeFileSize()
						: undefined;
				if (sizeValue)
					response = {
						...response,
						body: { ...(response.body as object), file_size: sizeValue.value },
					};
				const replaced = response.status === 200 ? f.field.takeBody(rawPath) : undefined;
				if (replaced) response = { ...response, body: replaced.body };
				if (response.status === 200 && f.takeNonJson(rawPath)) {
					response = {
						status: 200,
						headers: response.headers,
						raw: { text: '<html><body><p>OK</p></body></html>', contentType: 'text/html' },
					};
				}
			}
		}
		const rateHeaders = f.time.takeRateHeaders(rawPath, now);
		if (rateHeaders) response = { ...response, headers: { ...response.headers, ...rateHeaders } };
		if ((f.echoAuthorization || f.echoKeyForms) && response.status >= 400)
			response = echoAuthorization(
				response,
				req.headers.authorization,
				f.echoKeyForms && req.headers.authorization ? keyForms(req.headers.authorization) : [],
			);
		const oversize = response.status === 200 ? f.takeOversize(rawPath) : undefined;
		if (oversize !== undefined) return sendOversize(res, response, oversize, entry);
		this.send(res, response, entry, afterBytes);
	}

	private failure(fail: FailNextOptions, rawPath: string, now: number): ApiResponse {
		const headers: Record<string, string> = {};
		if (fail.status === 429 || fail.retryAfter !== undefined)
			headers['Retry-After'] = fail.retryAfter ?? '1';
		if (fail.rateLimitHeaders) {
			headers['X-RateLimit-Limit'] = '300';
			headers['X-RateLimit-Remaining'] = '0';
			headers['X-RateLimit-Reset'] = String(
				Math.ceil(now / 1000) + (fail.rateLimitResetSeconds ?? 1),
			);
		}
		if (fail.htmlBody) return htmlError(fail.status, headers);
		if (fail.status === 422) {
			const detail = fail.validation ?? [
				{
					loc: ['query', 'per_page'],
					msg: 'Input should be less than or equal to 20',
					type: 'less_than_equal',
				},
			];
			return json(422, { detail });
		}
		const [code, message] = FAIL_TEXT[fail.status] ?? ['internal_error', 'Internal server error'];
		if (rawPath.startsWith('/partner/')) return partnerError(fail.status, code, message, headers);
		// docs/gridbank-api.md#enterprise-usage: usage can answer 502 "usage data unavailable in this environment".
		if (fail.status === 502 && rawPath === '/external/v1/usage/me') {
			return enterpriseError(502, 'usage data unavailable in this environment', headers);
		}
		return enterpriseError(fail.status, message, headers);
	}

	private send(
		res: ServerResponse,
		r: ApiResponse,
		entry: LoggedRequest,
		afterBytes?: number,
	): void {
		const body = r.raw ? r.raw.text : JSON.stringify(r.body ?? null);
		const bytes = Buffer.from(body, 'utf8');
		entry.status = r.status;
		res.writeHead(r.status, {
			'Content-Type': r.raw ? r.raw.contentType : 'application/json',
			'Content-Length': String(bytes.length),
			...r.headers,
		});
		const drip = this.engine.faults.field.apiDripMs;
		if (drip > 0) {
			let sent = 0;
			const timer = setInterval(() => {
				if (res.destroyed || sent >= bytes.length) {
					clearInterval(timer);
					if (!res.destroyed) res.end();
					return;
				}
				res.write(bytes.subarray(sent, sent + 1));
				sent++;
			}, drip);
			res.once('close', () => clearInterval(timer));
			return;
		}
		if (afterBytes !== undefined && afterBytes < bytes.length) {
			res.write(bytes.subarray(0, afterBytes));
			res.socket?.end();
			setTimeout(() => res.socket?.destroy(), 50).unref();
			return;
		}
		res.end(bytes);
	}

	private async onStorage(
		target: 'storage' | 'redirect',
		req: IncomingMessage,
		res: ServerResponse,
	): Promise<void> {
		req.resume();
		const [rawPath, rawQuery] = splitUrl(req.url);
		const entry = this.record(target, req, res, rawPath, rawQuery, this.now());
		stampDate(res, entry.at, this.engine.faults.clock);
		await handleStorage(this.engine, {
			req,
			res,
			rawPath,
			rawQuery,
			entry,
			target,
			redirectOrigin: this.redirectUrl,
		});
	}

	// ------------------------------------------------------------ control

	clearLog(): void {
		this.log.length = 0;
	}

	reset(): void {
		this.engine.reset();
		this.clearLog();
	}

	clearTestState(): void {
		this.engine.faults.clear();
		this.engine.partnerLimiter.clear();
		this.engine.enterpriseLimiter.clear();
		this.engine.world.fileOverrides.clear();
		this.clearLog();
	}

	async close(): Promise<void> {
		await Promise.all([
			closeServer(this.api),
			closeServer(this.storage),
			closeServer(this.redirect),
		]);
	}

	createPartnerAccount(o: {
		licences: number;
		teamOwnerLicences?: number;
		purchasedAtStart?: number;
	}): PartnerAccountInfo {
		return this.engine.world.createPartnerAccount(o);
	}

	addPartnerKey(key: string): string {
		return this.engine.world.addPartnerKey(key);
	}

	addPartnerLicences(
		key: string,
		n: number,
		o?: { purchasedAt?: number; videoKeys?: string[] },
	): string[] {
		return this.engine.world.addPartnerLicences(key, n, o);
	}

	removePartnerLicences(key: string, videoKeys: string[]): void {
		this.engine.world.removePartnerLicences(key, videoKeys);
	}

	partnerLicences(key: string): Array<{ video_key: string; purchased_at: number }> {
		const w = this.engine.world;
		return w
			.visible(w.partnerAccountOfKey(key))
			.map((i) => ({ video_key: i.video.id, purchased_at: i.purchasedAt }));
	}

	unlicensedVideoKey(key: string): string {
		return this.engine.world.unlicensedVideoKey(key);
	}

	createEnterpriseAccount(o?: { tier?: Tier; subscription?: boolean }): { key: string } {
		return this.engine.world.createEnterpriseAccount(o);
	}

	addEnterpriseVideos(videos: Array<Partial<EnterpriseVideo>>): string[] {
		return this.engine.world.addEnterpriseVideos(videos);
	}

	republishVideo(id: string, publishedAt = this.now()): void {
		republishVideo(this.engine.world, id, publishedAt);
	}

	withdrawVideos(ids: string[]): void {
		withdrawVideos(this.engine.world, ids);
	}

	restoreVideos(ids: string[]): void {
		restoreVideos(this.engine.world, ids);
	}

	getVideo(idOrKey: string): EnterpriseVideo | undefined {
		const v = this.engine.world.video(idOrKey);
		if (!v) return undefined;
		return {
			id: v.id,
			title: v.title,
			description: v.description,
			duration: v.duration,
			width: v.width,
			height: v.height,
			url: v.url,
			thumbnail: v.thumbnail,
			creator: { ...v.creator },
			location: v.location ? { ...v.location } : null,
			keywords: v.keywords ? [...v.keywords] : null,
			theme: v.theme,
			popularity: v.popularity,
			publishedAt: v.publishedAt,
		};
	}

	getVideoFile(idOrKey: string): VideoFile {
		return this.engine.world.file(idOrKey);
	}

	setVideoFile(
		idOrKey: string,
		f: {
			size?: number;
			contentType?: string | null;
			fileName?: string;
			disposition?: DispositionMode;
			rangeSupport?: boolean;
		},
	): void {
		this.engine.world.setVideoFile(idOrKey, f);
	}

	private makeFaults(): Faults {
		const engine = this.engine;
		const count = (n: number | undefined, name: string): number => {
			const c = n ?? 1;
			if (!Number.isInteger(c) || c < 1)
				throw new Error(`${name}: count must be a positive integer`);
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
}

export async function startSimulator(opts: InternalOptions = {}): Promise<Simulator> {
	return new SimulatorImpl(opts).start();
}
