/**
 * Enterprise API (/external/v1 and /external/ping). Order of checks: route, auth (401),
 * tier rate limit (429; X-RateLimit-* headers on every authenticated response),
 * subscription (403, metadata and download only), validation (422), then the operation.
 */
import { createHash } from 'node:crypto';
import type { CatalogueVideo } from './catalogue';
import { formatOf } from './disposition';
import { issueDownloadUrl } from './downloads';
import { bearer, type Engine, type RequestContext } from './engine';
import { enterpriseError, json, type ApiResponse } from './errors';
import { enterpriseVideo } from './present';
import { queryWords, search, type SortOrder } from './search';
import { checkString, Validator } from './validation';
import type { EnterpriseAccount } from './world';

export const VIDEO_ID_PATTERN = '^[a-zA-Z0-9/_-]+$';
export const SORT_PATTERN = '^(relevant|popular|recent)$';
export const MAX_SEARCH_PAGE = 100;
const VIDEO_ROUTE = /^\/external\/v1\/videos\/([^/]*)(\/download)?$/;

type Route =
	| { kind: 'search' }
	| { kind: 'usage' }
	| { kind: 'video'; rawId: string }
	| { kind: 'download'; rawId: string };

function route(rawPath: string): Route | undefined {
	if (rawPath === '/external/v1/videos/search') return { kind: 'search' };
	if (rawPath === '/external/v1/usage/me') return { kind: 'usage' };
	const m = VIDEO_ROUTE.exec(rawPath);
	if (m) return { kind: m[2] ? 'download' : 'video', rawId: m[1] as string };
	return undefined;
}

export function handleEnterprise(engine: Engine, ctx: RequestContext): ApiResponse {
	if (ctx.rawPath === '/external/ping') {
		if (ctx.method !== 'GET') return json(405, { detail: 'Method Not Allowed' }, { Allow: 'GET' });
		return json(200, { ping: 'pong', timestamp: new Date(ctx.now).toISOString() });
	}
	const r = route(ctx.rawPath);
	if (!r) return json(404, { detail: 'Not Found' });
	if (ctx.method !== 'GET') return json(405, { detail: 'Method Not Allowed' }, { Allow: 'GET' });

	const token = bearer(ctx.headers);
	const account = token === undefined ? undefined : engine.world.enterpriseAccounts.get(token);
	if (!account) {
		return enterpriseError(
			401,
			token === undefined ? 'Not authenticated' : 'Invalid or expired API key',
			{
				'WWW-Authenticate': 'Bearer',
			},
		);
	}

	let headers: Record<string, string> = {};
	if (engine.options.enterpriseRateLimit) {
		const rate = engine.enterpriseLimiter.take(
			account.key,
			engine.options.enterpriseRates[account.tier],
			ctx.now,
		);
		headers = rate.headers;
		if (!rate.ok) {
			return enterpriseError(429, 'Rate limit exceeded', {
				...headers,
				'Retry-After': String(rate.retryAfterSeconds),
			});
		}
	}
	const res = operation(engine, ctx, account, r);
	res.headers = { ...headers, ...res.headers };
	return res;
}

function operation(
	engine: Engine,
	ctx: RequestContext,
	account: EnterpriseAccount,
	r: Route,
): ApiResponse {
	switch (r.kind) {
		case 'search':
			return searchVideos(engine, ctx);
		case 'usage':
			return usage(engine, ctx, account);
		case 'video':
		case 'download': {
			if (!account.subscription)
				return enterpriseError(403, 'No active subscription for this operation');
			const v = new Validator(ctx.query);
			let id: string | undefined;
			try {
				id = decodeURIComponent(r.rawId);
			} catch {
				return json(404, { detail: 'Not Found' });
			}
			const issue = checkString('path', 'video_id', id, {
				minLength: 1,
				maxLength: 50,
				pattern: VIDEO_ID_PATTERN,
			});
			if (issue) v.issues.push(issue);
			const expiresIn =
				r.kind === 'download' ? v.int('expires_in', { ge: 1, le: 5, default: 5 }) : undefined;
			if (!v.ok) return json(422, { detail: v.issues });
			const video = engine.world.video(id);
			if (!video) return enterpriseError(404, 'Video not found');
			if (r.kind === 'video') return json(200, enterpriseVideo(video, engine.faults));
			return download(engine, ctx, account, video, expiresIn ?? 5);
		}
	}
}

function searchVideos(engine: Engine, ctx: RequestContext): ApiResponse {
	const v = new Validator(ctx.query);
	const q = v.str('q', { minLength: 1, maxLength: 200, required: true });
	const sort = v.str('sort', { pattern: SORT_PATTERN }) ?? 'relevant';
	const page = v.int('page', { ge: 1, le: MAX_SEARCH_PAGE, default: 1 });
	const perPage = v.int('per_page', { ge: 1, le: 80, default: 15 });
	const durationMin = v.int('duration_min', { ge: 0 });
	const durationMax = v.int('duration_max', { ge: 0 });
	const theme = v.raw('theme');
	const searchIdParam = v.raw('search_id');
	if (!v.ok || q === undefined || page === undefined || perPage === undefined)
		return json(422, { detail: v.issues });
	if (queryWords(q).length === 0)
		return enterpriseError(400, 'Search query must contain at least one word');
	if (durationMin !== undefined && durationMax !== undefined && durationMin > durationMax) {
		return enterpriseError(400, 'duration_min must not be greater than duration_max');
	}
	const results = search(engine.world, {
		q,
		sort: sort as SortOrder,
		durationMin,
		durationMax,
		theme,
	});
	const start = (page - 1) * perPage;
	const searchId =
		searchIdParam !== undefined && searchIdParam !== ''
			? searchIdParam
			: `srch_${createHash('sha256').update(`${engine.secret}:${++engine.searchCounter}:${q}`).digest('hex').slice(0, 24)}`;
	const body: Record<string, unknown> = {
		search_id: searchId,
		page,
		per_page: perPage,
		has_more: start + perPage < results.length,
		videos: results.slice(start, start + perPage).map((x) => enterpriseVideo(x, engine.faults)),
	};
	if (engine.faults.enterpriseEmptyPages && page > 1) {
		body.videos = [];
		body.has_more = page < MAX_SEARCH_PAGE;
	}
	engine.faults.afterSearchPage?.(page, body);
	if (engine.faults.extra) {
		body.took_ms = 3;
		body.total_estimate = results.length;
	}
	return json(200, body);
}

function iso(ms: number): string {
	return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

function download(
	engine: Engine,
	ctx: RequestContext,
	account: EnterpriseAccount,
	video: CatalogueVideo,
	minutes: number,
): ApiResponse {
	const { url, expiresAt, file } = issueDownloadUrl(engine, video, ctx.now, minutes * 60);
	account.downloads++;
	account.perVideo.set(video.id, (account.perVideo.get(video.id) ?? 0) + 1);
	const body: Record<string, unknown> = {
		video_id: video.id,
		url,
		expires_at: iso(expiresAt * 1000),
		file_size: file.size,
		format: formatOf(file),
	};
	if (engine.faults.extra) body.watermark = false;
	return json(200, body);
}

function usage(engine: Engine, ctx: RequestContext, account: EnterpriseAccount): ApiResponse {
	const d = new Date(ctx.now);
	const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
	const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
	const top = [...account.perVideo.entries()]
		.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
		.slice(0, 5)
		.map(([id, count]) => ({
			video_id: id,
			download_count: count,
			thumbnail: engine.faults.nullable ? null : (engine.world.video(id)?.thumbnail ?? null),
		}));
	const body: Record<string, unknown> = {
		customer_id: account.customerId,
		tier: account.tier,
		lease_period_start: iso(start),
		lease_period_end: iso(end),
		downloads_this_period: account.downloads,
		active_collections_count: account.activeCollections,
		wildcard_enabled: account.wildcard,
		top_videos: top,
	};
	if (engine.faults.extra) body.quota_remaining = 50_000_000 - account.downloads;
	return json(200, body);
}
