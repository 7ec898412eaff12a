/**
 * startSimulator: the API origin (Partner + Enterprise), the storage origin and a third
 * "redirect" origin, all on 127.0.0.1, sharing one Engine (state, faults, limiters) and
 * one request log.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

import { answerApi } from './api-origin';
import { stampDate } from './clock';
import { Engine, resolveOptions } from './engine';
import { faultSwitches } from './fault-switches';
import { closeServer, flatHeaders, listen, splitUrl } from './http-server';
import { republishVideo, restoreVideos, withdrawVideos } from './collection-changes';
import { handleStorage } from './storage';
import type {
	DispositionMode,
	EnterpriseVideo,
	Faults,
	LoggedRequest,
	PartnerAccountInfo,
	Simulator,
	SimulatorOptions,
	Tier,
	VideoFile,
} from './types';

export interface InternalOptions extends SimulatorOptions {
	/** Called when a request's status is known (the cli's verbose mode). Never given headers to print. */
	onRequest?: (r: LoggedRequest) => void;
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
		this.faults = faultSwitches(this.engine);
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
		answerApi(this, { req, res, entry, rawPath, rawQuery, now });
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

	/** Serves same-second videos of `recent` searches in another order (0: by id, the default). */
	reorderTies(seed: number): void {
		this.engine.world.tieSeed = seed;
	}

	/** Runs `hook` after each search page is built (it may change the page), until the faults are cleared. */
	afterSearchPage(hook: (page: number, body: Record<string, unknown>) => void): void {
		this.engine.faults.afterSearchPage = hook;
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
}

export async function startSimulator(opts: InternalOptions = {}): Promise<Simulator> {
	return new SimulatorImpl(opts).start();
}
