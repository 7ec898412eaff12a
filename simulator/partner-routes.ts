/**
 * Partner API (/partner/v1): GET /content and GET /videos/{video_key}/download.
 * Order of checks: route, auth (401), rate limit (429), access withdrawn (403),
 * validation (422), then the operation.
 */
import type { CatalogueVideo } from './catalogue';
import { decodeCursor, encodeCursor } from './cursor';
import { issueDownloadUrl } from './downloads';
import { bearer, type Engine, type RequestContext } from './engine';
import { json, partnerError, type ApiResponse } from './errors';
import { partnerItem } from './present';
import { checkString, Validator } from './validation';
import { PAGING_FAULT_PAGES } from './faults';
import { windowHeaders } from './rate-limit';
import { endlessPage } from './time-faults';
import { compareVisible, PARTNER_KEY_PATTERN, type PartnerAccount } from './world';

const DOWNLOAD_ROUTE = /^\/partner\/v1\/videos\/([^/]*)\/download$/;
export const URL_LIFETIME_SECONDS = 300;

export function handlePartner(engine: Engine, ctx: RequestContext): ApiResponse {
	const isList = ctx.rawPath === '/partner/v1/content';
	const download = DOWNLOAD_ROUTE.exec(ctx.rawPath);
	if (!isList && !download) return json(404, { detail: 'Not Found' });
	if (ctx.method !== 'GET') return json(405, { detail: 'Method Not Allowed' }, { Allow: 'GET' });

	const auth = authenticate(engine, ctx);
	if ('status' in auth) return auth;
	const account = auth.account;

	const rate = engine.partnerLimiter.take(account.id, ctx.now);
	const window = engine.options.partnerRateLimitHeaders
		? engine.partnerLimiter.state(account.id, ctx.now)
		: undefined;
	const rateHeaders = window ? windowHeaders(window) : {};
	if (!rate.ok) {
		return partnerError(
			429,
			'rate_limit_exceeded',
			'Rate limit exceeded. Retry after the time given in Retry-After.',
			{
				...rateHeaders,
				'Retry-After': String(rate.retryAfterSeconds),
			},
		);
	}
	const res = afterRateCheck(engine, ctx, account, download);
	res.headers = { ...rateHeaders, ...res.headers };
	return res;
}

/** Everything after the rate limit: these responses carry the account's X-RateLimit-* headers. */
function afterRateCheck(
	engine: Engine,
	ctx: RequestContext,
	account: PartnerAccount,
	download: RegExpExecArray | null,
): ApiResponse {
	const isList = !download;

	if (account.withdrawAfter !== null) {
		if (account.withdrawAfter <= 0) {
			account.withdrawn = true;
			account.withdrawAfter = null;
		} else account.withdrawAfter--;
	}
	if (account.withdrawn) {
		return partnerError(
			403,
			'partner_access_revoked',
			'Partner API access has been revoked for this account',
		);
	}

	return isList
		? list(engine, ctx, account)
		: downloadUrl(engine, ctx, account, (download as RegExpExecArray)[1] as string);
}

function authenticate(
	engine: Engine,
	ctx: RequestContext,
): { account: PartnerAccount } | ApiResponse {
	const token = bearer(ctx.headers);
	const refuse = (message: string) =>
		partnerError(401, 'invalid_api_key', message, { 'WWW-Authenticate': 'Bearer' });
	if (token === undefined)
		return refuse('Missing API key. Send Authorization: Bearer apik_<id>.<secret>.');
	if (!PARTNER_KEY_PATTERN.test(token))
		return refuse('Malformed API key. Expected apik_<id>.<secret>.');
	const key = engine.world.partnerKeys.get(token);
	if (!key || key.revoked) return refuse('Invalid or revoked API key.');
	const account = engine.world.partnerAccounts.get(key.accountId);
	if (!account) return refuse('Invalid or revoked API key.');
	return { account };
}

function list(engine: Engine, ctx: RequestContext, account: PartnerAccount): ApiResponse {
	const v = new Validator(ctx.query);
	const perPage = v.int('per_page', { ge: 1, le: 100, default: 50 });
	const cursor = v.raw('cursor');
	if (!v.ok || perPage === undefined) return json(422, { detail: v.issues });
	if (engine.faults.time.endlessList) {
		const page = endlessPage(engine.secret, account.id, cursor, perPage, ctx.now);
		return page
			? json(200, page)
			: partnerError(
					400,
					'invalid_cursor',
					'Invalid or expired cursor. Restart paging from the beginning.',
				);
	}

	const items = engine.world.visible(account);
	let start = 0;
	let page = 1;
	if (cursor !== undefined) {
		const pos = decodeCursor(engine.secret, cursor);
		if (!pos || pos.a !== account.id || engine.faults.takeCursorReject(pos.n)) {
			return partnerError(
				400,
				'invalid_cursor',
				'Invalid or expired cursor. Restart paging from the beginning.',
			);
		}
		page = pos.n;
		const at = { purchasedAt: pos.p, key: pos.k };
		start = items.findIndex(
			(i) => compareVisible({ purchasedAt: i.purchasedAt, key: i.video.id }, at) > 0,
		);
		if (start < 0) start = items.length;
	}
	const slice = items.slice(start, start + perPage);
	const body: Record<string, unknown> = {
		videos: slice.map((i) => partnerItem(i.video, i.purchasedAt, engine.faults)),
	};
	const last = slice[slice.length - 1];
	if (start + perPage < items.length && last) {
		body.next_cursor = encodeCursor(engine.secret, {
			a: account.id,
			p: last.purchasedAt,
			k: last.video.id,
			n: page + 1,
		});
	} else if (engine.faults.endCursor === 'null') body.next_cursor = null;
	else if (engine.faults.endCursor === 'empty') body.next_cursor = '';
	misbehave(engine, account, cursor, page, items.slice(0, perPage), body);
	if (engine.faults.extra) {
		body.total_hint = items.length;
		body.request_id = `req_${ctx.now.toString(36)}`;
	}
	return json(200, body);
}

/** The partnerPaging fault, from page 2 on: cursors that repeat or cycle, pages with no new video. */
function misbehave(
	engine: Engine,
	account: PartnerAccount,
	cursor: string | undefined,
	page: number,
	firstPage: Array<{ purchasedAt: number; video: CatalogueVideo }>,
	body: Record<string, unknown>,
): void {
	const style = engine.faults.partnerPaging;
	if (style === 'off' || page < 2 || cursor === undefined) return;
	if (page >= PAGING_FAULT_PAGES) {
		delete body.next_cursor;
		return;
	}
	const last = firstPage[firstPage.length - 1];
	const fresh = () =>
		encodeCursor(engine.secret, {
			a: account.id,
			p: last?.purchasedAt ?? 0,
			k: last?.video.id ?? '',
			n: page + 1,
		});
	if (style === 'repeatCursor') body.next_cursor = cursor;
	else if (style === 'cycleCursors')
		body.next_cursor =
			page >= 3 && last
				? encodeCursor(engine.secret, {
						a: account.id,
						p: last.purchasedAt,
						k: last.video.id,
						n: 2,
					})
				: fresh();
	else {
		body.next_cursor = fresh();
		if (style === 'emptyPages') body.videos = [];
		else if (style === 'missingList') delete body.videos;
		else body.videos = firstPage.map((i) => partnerItem(i.video, i.purchasedAt, engine.faults));
	}
}

function downloadUrl(
	engine: Engine,
	ctx: RequestContext,
	account: PartnerAccount,
	rawKey: string,
): ApiResponse {
	let key: string;
	try {
		key = decodeURIComponent(rawKey);
	} catch {
		return json(404, { detail: 'Not Found' });
	}
	const issue = checkString('path', 'video_key', key, { minLength: 1, maxLength: 50 });
	if (issue) return json(422, { detail: [issue] });
	const video: CatalogueVideo | undefined = engine.world.video(key);
	if (!video) return partnerError(404, 'video_not_found', 'Video not found.');
	if (!engine.world.canSee(account, video.id))
		return partnerError(403, 'not_licensed', 'Video not purchased.');
	const { url, expiresAt } = issueDownloadUrl(engine, video, ctx.now, URL_LIFETIME_SECONDS);
	const body: Record<string, unknown> = { video_key: video.id, url, expires_at: expiresAt };
	if (engine.faults.extra) body.request_id = `req_${ctx.now.toString(36)}`;
	return json(200, body);
}
